import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startMonitor, until } from './helpers/monitor-process.js';
import { makeTempHome } from './helpers/temp-home.js';

/**
 * A running monitor says the config's own mistakes about where sessions live once at start, as
 * `agentwatch sessions` does: no source reports a claude_dirs entry that does not exist (its
 * sessions are simply never found).
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('agentwatch --api and the config places (spawned)', () => {
  it('a claude_dirs entry that does not exist is said on stderr at start, with a pointer to doctor', async () => {
    const home = await makeTempHome();
    cleanups.push(home.cleanup);
    const gone = path.join(home.home, 'no-such-claude');
    await mkdir(path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch'), { recursive: true });
    await writeFile(path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json'), JSON.stringify({ api_salt: 'config-places-salt', claude_dirs: [gone] }));
    const monitor = await startMonitor(['--api', '--host', '127.0.0.1:0', '--agent', 'claude'], { ...home.env, AGENTWATCH_API_PASSPHRASE: 'config places passphrase' }, cleanups, { cwd: home.home });
    const line = await until('the warning', () => monitor.stderr().split('\n').find((l) => l.includes('claude_dirs')), { context: monitor.stderr });
    expect(line).toContain(`config: the claude_dirs entry ${gone} does not exist (agentwatch doctor for details)`);
    await monitor.stop();
  });
});
