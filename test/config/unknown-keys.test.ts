import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closestKey, findUnknownKeys, unknownKeyWarning } from '../../src/config/unknown-keys.js';
import { runCli } from '../helpers/cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

describe('findUnknownKeys', () => {
  it('names unknown keys at every level with the closest known key', () => {
    expect(
      findUnknownKeys({
        window_minuts: 10,
        notify_after_sec: 30,
        agents: { claud: false, codex: true },
        tui: { them: 'dark' },
        webhooks: [{ name: 'a', url: 'http://x', secert: 's' }],
        my_own_note: 'kept',
      }),
    ).toMatchObject([
      { path: 'window_minuts', key: 'window_minuts', suggestion: 'window_minutes' },
      { path: 'my_own_note', key: 'my_own_note', known: expect.arrayContaining(['window_minutes', 'webhooks']) },
      { path: 'agents.claud', key: 'claud', suggestion: 'agents.claude' },
      { path: 'tui.them', key: 'them', suggestion: 'tui.theme' },
      { path: 'webhooks[0].secert', key: 'secert', suggestion: 'webhooks[0].secret' },
    ]);
  });

  it('suggests a key of the same level first, a nested one from the top level by its last part', () => {
    const said = (raw: unknown) => findUnknownKeys(raw).map(unknownKeyWarning);
    expect(said({ theme: 'dark', claude: false, exclude_cwd: ['/tmp'], window: 5 })).toEqual([
      'unknown key "theme" (did you mean "tui.theme"?); it is kept in the file but has no effect',
      'unknown key "claude" (did you mean "agents.claude"?); it is kept in the file but has no effect',
      'unknown key "exclude_cwd" (did you mean "exclude_cwd_substrings"?); it is kept in the file but has no effect',
      'unknown key "window" (did you mean "window_minutes"?); it is kept in the file but has no effect',
    ]);
  });

  it('counts a typo of the beginning of a key as close: windw -> window_minutes (not agents.kilo)', () => {
    expect(findUnknownKeys({ windw: 1, notifcat: true, defalt: '' })).toEqual([
      { path: 'windw', key: 'windw', suggestion: 'window_minutes' },
      { path: 'notifcat', key: 'notifcat', suggestion: 'notifications' },
      { path: 'defalt', key: 'defalt', suggestion: 'default_filter' },
    ]);
    // The documented examples (docs/configuration.md) stay as they were.
    expect(findUnknownKeys({ window_minuts: 1, agents: { claud: false } }).map((k) => k.suggestion)).toEqual(['window_minutes', 'agents.claude']);
  });

  it('names no far-fetched key: with nothing close it says so and lists the keys of that level', () => {
    const said = (raw: unknown) => findUnknownKeys(raw).map(unknownKeyWarning);
    const topLevel = 'window_minutes, default_filter, sort_order, editor, launch_at_login, notifications, notify_after_sec, waiting_timeout_minutes, agents, claude_dirs, exclude_cwd_substrings, api_passphrase, api_salt, tui, card_density, terminal, detail_width, webhooks, prices';
    expect(said({ myown: 1, zzzz: 2, note: 'x' })).toEqual([
      `unknown key "myown" (no such key; the top-level keys are ${topLevel}); it is kept in the file but has no effect`,
      `unknown key "zzzz" (no such key; the top-level keys are ${topLevel}); it is kept in the file but has no effect`,
      `unknown key "note" (no such key; the top-level keys are ${topLevel}); it is kept in the file but has no effect`,
    ]);
    expect(said({ agents: { foo: true }, tui: { colour: 'x' }, webhooks: [{ name: 'a', url: 'http://x', headers: {} }] })).toEqual([
      'unknown key "agents.foo" (no such key; the keys of agents are amp, claude, codex, copilot, crush, cursor, droid, gemini, goose, grok, kilo, kimi, opencode, pi, qwen); it is kept in the file but has no effect',
      'unknown key "tui.colour" (no such key; the keys of tui are theme); it is kept in the file but has no effect',
      'unknown key "webhooks[0].headers" (no such key; the keys of a webhook entry are name, url, secret, events, agents, enabled, signature); it is kept in the file but has no effect',
    ]);
    for (const unknown of findUnknownKeys({ myown: 1, zzzz: 2, agents: { foo: true } })) expect(unknown.suggestion).toBeUndefined();
  });

  it('suggests only what is close enough to be a typo', () => {
    expect(closestKey('windw', ['window_minutes', 'editor'])).toBeUndefined();
    expect(closestKey('edtior', ['window_minutes', 'editor'])).toBe('editor');
  });
});

let home: TempHome | undefined;
afterEach(async () => {
  await home?.cleanup();
  home = undefined;
});

describe('config typos on the command line', () => {
  it('one stderr warning per unknown key naming the closest known key; the key stays in the file', async () => {
    home = await makeTempHome();
    const file = path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ window_minuts: 60, agents: { claud: false } }));
    const run = await runCli(['sessions', '--all'], { env: home.env, timeoutMs: 30_000 });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('unknown key "window_minuts" (did you mean "window_minutes"?)');
    expect(run.stderr).toContain('unknown key "agents.claud" (did you mean "agents.claude"?)');
    expect(run.stderr.match(/window_minuts/g)).toHaveLength(1);
    const stored = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(stored.window_minuts).toBe(60);
    expect((stored.agents as Record<string, unknown>).claud).toBe(false);
  });
});
