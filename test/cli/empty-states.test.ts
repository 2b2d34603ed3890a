import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/** Empty states lead somewhere: what exists outside the scope or window, and the next command. */
const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
let home: TempHome | undefined;
afterEach(async () => {
  await home?.cleanup();
  home = undefined;
});

describe('agentwatch sessions with nothing to list', () => {
  it('in a directory without sessions, says how many exist elsewhere and to use --all', async () => {
    home = await makeTempHome();
    await cp(path.join(FIXTURES, 'claude'), home.home, { recursive: true });
    const elsewhere = path.join(home.root, 'empty-project');
    await mkdir(elsewhere, { recursive: true });
    const run = await runCli(['sessions', '--agent', 'claude'], { env: home.env, cwd: elsewhere });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^No sessions in .*empty-project/);
    expect(run.stdout).toMatch(/\n1 session in other directories: agentwatch sessions --all\n/);
  });

  it('with a window that hides every session, says how many are older and to drop --window', async () => {
    home = await makeTempHome();
    await cp(path.join(FIXTURES, 'claude'), home.home, { recursive: true });
    const run = await runCli(['sessions', '--all', '--agent', 'claude', '--window', '1'], { env: home.env });
    expect(run.stdout).toContain('1 session here is older than 1 min: run it without --window (or with a larger one).');
  });

  it('with no session anywhere, points at --demo and says where it looked', async () => {
    home = await makeTempHome();
    const run = await runCli(['sessions', '--all'], { env: home.env });
    expect(run.stdout).toContain('agentwatch sessions --demo');
    expect(run.stdout).toContain(`Looked in:\n  amp`);
  });
});

describe('agentwatch --api with nothing in the window', () => {
  /** Start the headless monitor, wait for `text` on stderr, stop it. */
  const headless = async (env: Record<string, string>, text: string): Promise<string> => {
    const { spawn } = await import('node:child_process');
    const { CLI_PATH } = await import('../helpers/cli.js');
    const child = spawn(process.execPath, [CLI_PATH, '--api', '--host', '127.0.0.1:0'], {
      env: { ...env, AGENTWATCH_API_PASSPHRASE: 'a long enough passphrase' },
      cwd: env.HOME,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      const deadline = Date.now() + 15_000;
      while (!stderr.includes(text) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      return stderr;
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  };

  it('says once that nothing is active, where it looked, and points at --demo', async () => {
    home = await makeTempHome();
    const stderr = await headless(home.env, 'looked in:');
    expect(stderr).toContain('agentwatch: no sessions active in the last 30 minutes; none older either: agentwatch --demo --api serves sample sessions to try the API');
    expect(stderr).toMatch(/agentwatch: looked in: .*\.claude\/projects/);
    expect(stderr.match(/no sessions active/g)).toHaveLength(1);
  });

  it('counts the older sessions outside the window', async () => {
    home = await makeTempHome();
    await cp(path.join(FIXTURES, 'claude'), home.home, { recursive: true });
    const stderr = await headless(home.env, 'looked in:');
    expect(stderr).toMatch(/no sessions active in the last 30 minutes; \d+ older sessions? (is|are) outside the window \(a larger window_minutes in config\.json lists them here; agentwatch sessions --all prints them\)/);
  });
});
