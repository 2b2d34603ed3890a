import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * `--agent NAME` for an agent the config disables: the monitor refuses (exit 1), `sessions` says so
 * and lists nothing (exit 0). Both go through the shared setup (src/app/config-setup.ts).
 * Needs `npm run build` first.
 */
describe('--agent for a disabled agent', () => {
  let t: TempHome;
  let configFile: string;
  beforeEach(async () => {
    t = await makeTempHome('agentwatch-disabled-agent-');
    configFile = path.join(t.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json');
    await mkdir(path.dirname(configFile), { recursive: true });
    await writeFile(configFile, JSON.stringify({ agents: { codex: false } }));
  });
  afterEach(() => t.cleanup());

  it('the monitor refuses it with exit 1, naming the config key, before asking for anything', async () => {
    const result = await runCli(['--api', '--agent', 'codex'], { env: t.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`codex is disabled in ${configFile} (agents.codex: false)`);
    expect(result.stdout).toBe('');
  });

  it('sessions says so on stderr and lists nothing, exit 0', async () => {
    const result = await runCli(['sessions', '--all', '--agent', 'codex', '--json'], { env: t.env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`agentwatch: codex is disabled in ${configFile} (agents.codex: false); nothing to list\n`);
    expect(JSON.parse(result.stdout)).toEqual([]);
  });

  it('an enabled agent is still picked: sessions --agent claude runs only claude', async () => {
    const result = await runCli(['sessions', '--all', '--agent', 'claude'], { env: t.env });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('disabled');
    expect(result.stdout).toContain('No sessions in any directory, from claude.');
  });
});
