import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/** Empty states lead somewhere (issue 14): what exists outside the scope or window, and the next command. */
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
    expect(run.stdout).toContain('1 session here are older than 1 min: run it without --window.');
  });

  it('with no session anywhere, points at --demo and says where it looked', async () => {
    home = await makeTempHome();
    const run = await runCli(['sessions', '--all'], { env: home.env });
    expect(run.stdout).toContain('agentwatch sessions --demo');
    expect(run.stdout).toContain(`Looked in:\n  amp`);
  });
});
