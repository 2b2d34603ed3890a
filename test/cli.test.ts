import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { runCli } from './helpers/cli.js';
import { makeTempHome, type TempHome } from './helpers/temp-home.js';

let temp: TempHome;
beforeAll(async () => {
  temp = await makeTempHome();
});
afterAll(async () => {
  await temp.cleanup();
});

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

describe('agentwatch CLI frame', () => {
  it('--help prints the overview and exits 0 without touching the config', async () => {
    const result = await runCli(['--help'], { env: temp.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('agentwatch');
    expect(result.stdout).toContain('--version');
    expect(result.stderr).toBe('');
  });

  it('--version prints the package version', async () => {
    const result = await runCli(['--version'], { env: temp.env });
    expect(result).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('an unknown flag exits 2 with one line and a hint, no stack trace', async () => {
    const result = await runCli(['--bogus'], { env: temp.env });
    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(2);
    expect(lines[0]).toMatch(/--bogus/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    [['--bogus', '--version'], 'Unknown flag --bogus for agentwatch'],
    [['--version', '--bogus'], 'Unknown flag --bogus for agentwatch'],
    [['-v', '--jsn'], 'Unknown flag --jsn for agentwatch'],
    [['--bogus', '--help'], 'Unknown flag --bogus for agentwatch'],
    [['sessions', '--bogus', '--help'], 'Unknown flag --bogus for agentwatch sessions'],
    [['webhooks', 'log', '--timeout', '5', '--help'], 'Unknown flag --timeout for agentwatch webhooks log'],
  ])('%j: an unknown flag is a usage error (exit 2) even beside --version or --help', async (args, message) => {
    const result = await runCli(args, { env: temp.env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toBe(`agentwatch: ${message}`);
  });

  it('--version and --help still answer beside flags the command takes', async () => {
    expect(await runCli(['--api', '--version'], { env: temp.env })).toMatchObject({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    const help = await runCli(['sessions', '--json', '--window', '5', '-h'], { env: temp.env });
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: agentwatch sessions /);
    const webhooks = await runCli(['webhooks', 'log', '--json', '--help'], { env: temp.env });
    expect(webhooks).toMatchObject({ code: 0, stderr: '' });
    expect(webhooks.stdout).toMatch(/^Usage: agentwatch webhooks /);
  });

  it('an unknown command exits 2', async () => {
    const result = await runCli(['frobnicate'], { env: temp.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown command "frobnicate"/);
  });
});
