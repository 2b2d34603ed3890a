import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closestKey, findUnknownKeys, unknownKeyWarning, type UnknownKey } from '../../src/config/unknown-keys.js';
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
      { path: 'window_minuts', key: 'window_minuts', suggestion: 'window_minutes', closest: 'window_minutes' },
      { path: 'my_own_note', key: 'my_own_note' },
      { path: 'agents.claud', key: 'claud', suggestion: 'agents.claude', closest: 'agents.claude' },
      { path: 'tui.them', key: 'them', suggestion: 'tui.theme', closest: 'tui.theme' },
      { path: 'webhooks[0].secert', key: 'secert', suggestion: 'webhooks[0].secret', closest: 'webhooks[0].secret' },
    ]);
  });

  it('always names the closest known key (PRODUCT.md section 2), a nested one from the top level too', () => {
    const said = (raw: unknown) => findUnknownKeys(raw).map(unknownKeyWarning);
    expect(said({ theme: 'dark', claude: false, exclude_cwd: ['/tmp'], window: 5 })).toEqual([
      'unknown key "theme" (did you mean "tui.theme"?); it is kept in the file but has no effect',
      'unknown key "claude" (did you mean "agents.claude"?); it is kept in the file but has no effect',
      'unknown key "exclude_cwd" (did you mean "exclude_cwd_substrings"?); it is kept in the file but has no effect',
      'unknown key "window" (did you mean "window_minutes"?); it is kept in the file but has no effect',
    ]);
    // Far from everything: no "did you mean", but still the closest known key.
    for (const raw of [{ my_own_note: 1 }, { tui: { colour: 'x' } }, { webhooks: [{ name: 'a', url: 'http://x', headers: {} }] }]) {
      const [unknown] = findUnknownKeys(raw);
      expect(unknown?.suggestion).toBeUndefined();
      expect(unknown?.closest).toBeTypeOf('string');
      expect(unknownKeyWarning(unknown as UnknownKey)).toMatch(/^unknown key "[^"]+" \(no such key; the closest known key is "[a-z_.0-9[\]]+"\); it is kept in the file but has no effect$/);
    }
    expect(findUnknownKeys({ tui: { colour: 'x' } })[0]?.closest).toBe('tui.theme');
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
