import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deriveToken } from '../src/sinks/http/token.js';
import { startMonitor, until } from './helpers/monitor-process.js';
import { makeTempHome, type TempHome } from './helpers/temp-home.js';

/**
 * The diagnostics count of `/api/stats` (the dashboard's status bar, the TUI's) after a restart:
 * a warm start restores files from the discovery cache without reading them again, and must
 * count the junk lines their earlier read found, as a cold start of the same files does.
 */

const PASSPHRASE = 'warm diagnostics passphrase';
const SALT = 'warm-diagnostics-salt';
const SESSION = '2c9d4e1f-3333-4444-8555-966667777888';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Stats {
  readonly ready: boolean;
  readonly diagnostics: number;
}

/** Runs `agentwatch --api` until its first discovery is done, and returns its stats then. */
const statsOfOneRun = async (home: TempHome, token: string): Promise<Stats> => {
  const monitor = await startMonitor(['--api', '--host', '127.0.0.1:0', '--agent', 'claude'], { ...home.env, AGENTWATCH_API_PASSPHRASE: PASSPHRASE }, cleanups, { cwd: home.home });
  const stats = await until(
    'the first discovery',
    async () => {
      const answer = (await (await fetch(`${monitor.base}/api/stats`, { headers: { authorization: `Bearer ${token}` } })).json()) as Stats;
      return answer.ready && answer;
    },
    { context: monitor.stderr },
  );
  // SIGTERM: the monitor writes the discovery cache as it stops.
  await monitor.stop();
  return stats;
};

describe('diagnostics after a restart (spawned)', () => {
  it('a warm start counts the junk lines of the files it restores, as the cold start did', async () => {
    const home = await makeTempHome();
    cleanups.push(home.cleanup);
    const dir = path.join(home.home, '.claude', 'projects', '-home-dev-shop');
    await mkdir(dir, { recursive: true });
    const at = new Date(Date.now() - 60_000).toISOString();
    const record = (r: Record<string, unknown>): string => `${JSON.stringify({ sessionId: SESSION, cwd: '/home/dev/shop', version: '2.0.31', ...r })}\n`;
    await writeFile(
      path.join(dir, `${SESSION}.jsonl`),
      record({ type: 'user', uuid: 'u1', message: { role: 'user', content: 'Add a cart page' }, timestamp: at }) +
        '{"type":"assistant","message":{"role"\n' +
        'not json at all\n' +
        record({ type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Done.' }], usage: { input_tokens: 10, output_tokens: 5 } }, timestamp: at }),
    );
    await mkdir(path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch'), { recursive: true });
    await writeFile(path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json'), JSON.stringify({ api_salt: SALT }));
    const token = await deriveToken(PASSPHRASE, SALT);

    const cold = await statsOfOneRun(home, token);
    // Junk lines are skipped records: /api/stats counts only problems that need the user
    // (docs/api.md), so none here; the warm start must not invent one either.
    expect(cold.diagnostics).toBe(0);
    const warm = await statsOfOneRun(home, token);
    expect(warm.diagnostics).toBe(cold.diagnostics);
    // A restore of a restore keeps them.
    expect((await statsOfOneRun(home, token)).diagnostics).toBe(cold.diagnostics);
  });
});
