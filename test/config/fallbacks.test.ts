import { describe, expect, it } from 'vitest';
import { backFill } from '../../src/config/back-fill.js';
import { toEffective } from '../../src/config/effective.js';

/** The one rule for a value the file holds that its key does not take: a warning, and the key's default. */
const read = (raw: Record<string, unknown>) => toEffective(backFill({ api_salt: 'salt', ...raw }).filled, {});

describe('an invalid value of any key', () => {
  it.each([
    [{ tui: { theme: 'drak' } }, 'tui.theme "drak" is not one of "auto", "dark", "light" (did you mean "dark"?); using "auto"'],
    [{ tui: 'dark' }, 'tui "dark" is not an object of theme; using {"theme":"auto"}'],
    [{ notifications: 'yes' }, 'notifications "yes" is not true or false; using false'],
    [{ notifications: 'true' }, 'notifications "true" is not true or false (did you mean true?); using false'],
    [{ window_minutes: '45' }, 'window_minutes "45" is not a whole number in 1..10080 (did you mean 45?); using 30'],
    [{ window_minutes: 20_000 }, 'window_minutes 20000 is not a whole number in 1..10080; using 30'],
    [{ notify_after_sec: 100_000 }, 'notify_after_sec 100000 is not a whole number in 1..86400; using 30'],
    [{ waiting_timeout_minutes: -1 }, 'waiting_timeout_minutes -1 is not a whole number in 0..10080; using 2'],
    [{ waiting_timeout_minutes: 1.5 }, 'waiting_timeout_minutes 1.5 is not a whole number in 0..10080; using 2'],
    [{ agents: { claude: 'no' } }, 'agents.claude "no" is not true or false; using true'],
    [{ agents: ['claude'] }, 'agents ["claude"] is not an object of amp, claude, codex, copilot, crush, cursor, droid, gemini, goose, grok, kilo, kimi, opencode, pi, qwen; using {"amp":true,"claude":true,"codex":true,"copilot":true,"crush":true,"cursor":true,"droid":true,"gemini":true,"goose":true,"grok":true,"kilo":true,"kimi":true,"opencode":true,"pi":true,"qwen":true}'],
    [{ card_density: 'compcat' }, 'card_density "compcat" is not one of "compact", "rich", "live" (did you mean "compact"?); using "live"'],
    [{ claude_dirs: '/srv/claude' }, 'claude_dirs "/srv/claude" is not a list of strings; using []'],
    [{ editor: 'x'.repeat(1001) }, `editor "${'x'.repeat(56)}... is not text of at most 1000 characters; using ""`],
    [{ webhooks: 'none' }, 'webhooks "none" is not a list of objects; using []'],
    [{ default_filter: null }, 'default_filter null is not one of "", "active", "idle", "waiting", "thinking", "compacting", "reading", "writing", "running", "searching", "browsing", "spawning"; using ""'],
  ])('%j warns naming the key path, the value, what it takes (and what was probably meant), and reads as the default', (raw, warning) => {
    const { config, warnings } = read(raw);
    expect(warnings).toEqual([warning]);
    const key = Object.keys(raw)[0] as keyof typeof config;
    expect(config[key]).toEqual(read({}).config[key]);
  });

  it('waiting_timeout_minutes takes 0 (waiting until the user acts) up to a week', () => {
    expect(read({}).config.waiting_timeout_minutes).toBe(2);
    expect(read({ waiting_timeout_minutes: 0 })).toMatchObject({ config: { waiting_timeout_minutes: 0 }, warnings: [] });
    expect(read({ waiting_timeout_minutes: 10_080 })).toMatchObject({ config: { waiting_timeout_minutes: 10_080 }, warnings: [] });
  });

  it('a secret is never quoted, nor guessed at', () => {
    const { config, warnings } = read({ api_passphrase: 123_456_789_012_345 });
    expect(config.api_passphrase).toBe('');
    expect(warnings).toEqual(['api_passphrase (not shown) is not text; using ""']);
  });

  it('every invalid key is named at once, each falling back on its own (the valid keys beside them are kept)', () => {
    const { config, warnings } = read({ window_minutes: 0, tui: { theme: 'drak' }, agents: { codex: false, pi: 'off' }, notifications: true, detail_width: 250 });
    expect(warnings.map((line) => line.split(' ')[0])).toEqual(['window_minutes', 'agents.pi', 'tui.theme', 'detail_width']);
    expect(config).toMatchObject({ window_minutes: 30, notifications: true, detail_width: 400, tui: { theme: 'auto' } });
    expect(config.agents).toMatchObject({ codex: false, pi: true, claude: true });
  });
});

describe('prices', () => {
  it('keeps each valid model price and drops an invalid one without a word about the others', () => {
    const { config, warnings } = read({ prices: { 'my-llama': { input: 1, output: 2, cache_read: 0.1 }, negative: { input: -1, output: 2 }, words: 'cheap' } });
    expect(config.prices).toEqual({ 'my-llama': { input: 1, output: 2, cache_read: 0.1 } });
    expect(warnings).toEqual([]);
  });

  it('reads as {} when it is not an object, and says so', () => {
    const { config, warnings } = read({ prices: 'cheap' });
    expect(config.prices).toEqual({});
    expect(warnings).toEqual(['prices "cheap" is not an object of names to objects; using {}']);
  });
});
