import { describe, expect, it } from 'vitest';
import { toEffective } from '../../src/config/effective.js';
import { applyConfigPatch, parseConfigPatch, restartRequired } from '../../src/config/patch.js';
import { backFill } from '../../src/config/back-fill.js';

/** A document as a load leaves it: what the file holds, missing keys back-filled. */
const stored = (raw: Record<string, unknown> = {}) => backFill({ api_salt: 'salt', ...raw }).filled;
const effective = (raw: Record<string, unknown> = {}) => toEffective(stored(raw), {}).config;

describe('parseConfigPatch', () => {
  it('accepts every writable key with valid values', () => {
    const body = {
      window_minutes: 60,
      default_filter: 'active',
      editor: 'code',
      launch_at_login: true,
      notifications: true,
      notify_after_sec: 45,
      agents: { amp: false },
      claude_dirs: ['/srv/claude'],
      exclude_cwd_substrings: ['/tmp/'],
      tui: { theme: 'light' },
      card_density: 'rich',
      terminal: 'kitty',
      detail_width: 520,
      webhooks: [{ name: 'n', url: 'https://example.com/hook', has_secret: true }],
    };
    expect(parseConfigPatch(body)).toEqual({ patch: body });
  });

  it('names every bad field at once', () => {
    expect(parseConfigPatch({ window_minutes: -1, detail_width: 5000 })).toEqual({ error: 'window_minutes must be at least 1; detail_width must be at most 2000' });
    expect(parseConfigPatch({ tui: { theme: 'blue' } })).toEqual({ error: 'tui.theme must be "auto", "dark" or "light"' });
    expect(parseConfigPatch({ webhooks: [{ name: '', url: 'http://x' }] })).toEqual({ error: 'webhooks[0].name: name must be a non-empty string' });
    expect(parseConfigPatch('window_minutes=5')).toEqual({ error: expect.stringMatching(/^expected a JSON object/) });
  });

  it('names an unknown key inside tui or agents with its path and the closest known key', () => {
    expect(parseConfigPatch({ tui: { them: 'dark' } })).toEqual({ error: 'unknown key "tui.them" (did you mean "tui.theme"?)' });
    expect(parseConfigPatch({ agents: { clade: true, codex: false } })).toEqual({ error: 'unknown key "agents.clade" (did you mean "agents.claude"?)' });
    expect(parseConfigPatch({ agents: { zzzzzzzz: true } })).toEqual({ error: `unknown key "agents.zzzzzzzz" (known: amp, claude, codex, copilot, crush, cursor, droid, gemini, goose, grok, kilo, kimi, opencode, pi, qwen)` });
    expect(parseConfigPatch({ window_minute: 5, tui: { them: 'dark' } })).toEqual({ error: 'unknown key "window_minute" (did you mean "window_minutes"?); unknown key "tui.them" (did you mean "tui.theme"?)' });
  });
});

describe('applyConfigPatch', () => {
  it('replaces top-level keys, merges agents and tui key by key, keeps unknown keys', () => {
    const before = stored({ my_key: 1, agents: { claude: false }, tui: { theme: 'dark', extra: 'x' } });
    const after = applyConfigPatch(before, { window_minutes: 5, agents: { codex: false }, tui: { theme: 'light' }, exclude_cwd_substrings: ['a'] });
    expect(after).toMatchObject({ my_key: 1, window_minutes: 5, exclude_cwd_substrings: ['a'], tui: { theme: 'light', extra: 'x' } });
    expect(after.agents).toMatchObject({ claude: false, codex: false, amp: true });
    expect(before.window_minutes).toBe(30);
  });

  it('webhook entries: the stored secret and keys of the same name stay unless given; "" removes the secret', () => {
    const before = stored({ webhooks: [{ name: 'a', url: 'http://x/a', secret: 's', note: 'keep' }, { name: 'b', url: 'http://x/b', secret: 't' }] });
    const after = applyConfigPatch(before, {
      webhooks: [
        { name: 'a', url: 'http://x/a2', has_secret: true },
        { name: 'b', url: 'http://x/b', secret: '' },
        { name: 'c', url: 'http://x/c' },
      ],
    });
    expect(after.webhooks).toEqual([{ name: 'a', url: 'http://x/a2', secret: 's', note: 'keep' }, { name: 'b', url: 'http://x/b' }, { name: 'c', url: 'http://x/c' }]);
  });
});

describe('restartRequired', () => {
  it('is empty for what applies live', () => {
    const after = effective({ window_minutes: 5, card_density: 'compact', detail_width: 900, notifications: true, notify_after_sec: 9, exclude_cwd_substrings: ['x'], editor: 'vim', terminal: 'kitty', default_filter: 'waiting', agents: { claude: false } });
    expect(restartRequired(effective(), after, ['claude', 'codex'])).toEqual([]);
  });

  it('names claude_dirs, webhooks, the theme and agents switched on that are not running', () => {
    const before = effective({ agents: { pi: false, amp: false } });
    const after = effective({ claude_dirs: ['/x'], webhooks: [{ name: 'a', url: 'http://x' }], tui: { theme: 'light' }, agents: { pi: true, amp: true } });
    expect(restartRequired(before, after, ['claude', 'amp'])).toEqual(['agents.pi', 'claude_dirs', 'tui.theme', 'webhooks']);
  });

  it('names search when an exclusion is lifted (its messages were never indexed), not when one is added', () => {
    const before = effective({ exclude_cwd_substrings: ['/secret', '/tmp'] });
    expect(restartRequired(before, effective({ exclude_cwd_substrings: ['/tmp'] }), ['claude'])).toEqual(['search']);
    expect(restartRequired(before, effective({ exclude_cwd_substrings: ['/secret', '/tmp', '/x'] }), ['claude'])).toEqual([]);
  });
});
