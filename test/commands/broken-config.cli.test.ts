import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DoctorReport } from '../../src/doctor/report.js';
import { runCli } from '../helpers/cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * A config file with mistakes, as the built CLI meets it (`npm run build` first): an invalid value
 * warns and reads as its default everywhere; a file that is not JSON stops only the commands that
 * need it, and the others run on the defaults, saying so; the file is never changed for it.
 */
let home: TempHome | undefined;
afterEach(async () => {
  await home?.cleanup();
  home = undefined;
});

const withConfig = async (text: string): Promise<{ t: TempHome; file: string }> => {
  home = await makeTempHome('agentwatch-broken-config-');
  const file = path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text, { mode: 0o600 });
  return { t: home, file };
};

const PASSPHRASE = 'a passphrase long enough';
const BROKEN = `{\n  "api_passphrase": "${PASSPHRASE}",\n  "api_salt": "fixed-salt",\n  "window_minutes": 5,\n}\n`;

describe('an invalid value', { timeout: 60_000 }, () => {
  it('"tui": {"theme": "drak"} and "notifications": "yes": each named with a did-you-mean where it fits, and the command runs', async () => {
    const text = JSON.stringify({ api_passphrase: PASSPHRASE, api_salt: 'fixed-salt', tui: { theme: 'drak' }, notifications: 'yes' });
    const { t, file } = await withConfig(text);
    const run = await runCli(['sessions', '--json', '--all'], { env: t.env, timeoutMs: 30_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('[]\n');
    expect(run.stderr.split('\n').filter((line) => line.startsWith(`agentwatch: ${file}: `))).toEqual([
      `agentwatch: ${file}: notifications "yes" is not true or false; using false`,
      `agentwatch: ${file}: tui.theme "drak" is not one of "auto", "dark", "light" (did you mean "dark"?); using "auto"`,
    ]);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ tui: { theme: 'drak' }, notifications: 'yes' });
  });
});

describe('a config file that is not JSON', { timeout: 90_000 }, () => {
  it.each([
    { args: ['sessions', '--json', '--all'], stdout: /^\[\]\n$/ },
    { args: ['search', 'foo', '--json'], stdout: /^\[\]\n$/ },
    { args: ['limits', '--demo', '--json'], stdout: /^\{\n {2}"generated_at"/ },
  ])('$args (reads it only): runs on the defaults, says so once on stderr, and leaves the file as it is', async ({ args, stdout }) => {
    const { t, file } = await withConfig(BROKEN);
    const run = await runCli(args, { env: t.env, timeoutMs: 30_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(stdout);
    expect(run.stderr.split('\n').filter((line) => line.includes(file))).toEqual([
      `agentwatch: ${file}:4:22: not valid JSON (a trailing comma (JSON takes none before })); running without it (on the defaults for what could not be read), and it is left as it is`,
    ]);
    expect(await readFile(file, 'utf8')).toBe(BROKEN);
  });

  it('doctor reads what it can: the passphrase is set, and the file is reported with the place of the mistake', async () => {
    const { t, file } = await withConfig(BROKEN);
    const run = await runCli(['doctor', '--json'], { env: t.env, timeoutMs: 60_000 });
    const report = JSON.parse(run.stdout) as DoctorReport;
    expect(report.api.passphrase).toBe('set');
    expect(report.config).toMatchObject({ valid: false, error: `${file}:4:22: not valid JSON (a trailing comma (JSON takes none before }))` });
    expect(await readFile(file, 'utf8')).toBe(BROKEN);
  });

  it('webhooks test, which needs it, stops: exit 1 naming the place', async () => {
    const { t, file } = await withConfig(BROKEN);
    const run = await runCli(['webhooks', 'test'], { env: t.env, timeoutMs: 30_000 });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`agentwatch: ${file}:4:22: not valid JSON (a trailing comma (JSON takes none before }))\n`);
  });
});
