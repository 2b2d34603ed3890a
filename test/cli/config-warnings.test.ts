import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backFill } from '../../src/config/back-fill.js';
import { runCli } from '../helpers/cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * Unknown config keys produce one stderr warning each, naming the key and the
 * closest known key, whichever command reads the config; stdout keeps only the command's output.
 */
let temp: TempHome;
let file = '';
// A complete file (nothing to back-fill), so no command has a reason to write it.
const TEXT = `${JSON.stringify(backFill({ window_minuts: 5, agents: { claud: false }, api_passphrase: 'a passphrase long enough', api_salt: 'fixed-salt' }).filled, null, 2)}\n`;

beforeAll(async () => {
  temp = await makeTempHome('agentwatch-config-warnings-');
  file = path.join(temp.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, TEXT, { mode: 0o600 });
});
afterAll(async () => {
  await temp.cleanup();
});

const warnings = (): string[] => [
  `agentwatch: ${file}: unknown key "window_minuts" (did you mean "window_minutes"?); it is kept in the file but has no effect`,
  `agentwatch: ${file}: unknown key "agents.claud" (did you mean "agents.claude"?); it is kept in the file but has no effect`,
];

describe('every command that reads the config warns about unknown keys', () => {
  it.each([
    { args: ['limits', '--demo', '--json'], code: 0, stdout: /^\{\n {2}"generated_at"/ },
    { args: ['passphrase', '--show'], code: 0, stdout: /^[\w-]{43}\n$/ },
    { args: ['webhooks', 'test'], code: 1, stdout: /^$/ },
    { args: ['webhooks', 'replay', '0b6f7c1e'], code: 1, stdout: /^$/ },
    { args: ['sessions', '--json'], code: 0, stdout: /^\[\]\n$/ },
    { args: ['search', 'foo', '--json'], code: 0, stdout: /^\[\]\n$/ },
  ])('$args: once per key on stderr, stdout clean, file untouched', async ({ args, code, stdout }) => {
    const result = await runCli(args, { env: temp.env, timeoutMs: 30_000 });
    expect(result.code, result.stderr).toBe(code);
    expect(result.stdout).toMatch(stdout);
    const lines = result.stderr.split('\n');
    for (const warning of warnings()) expect(lines.filter((line) => line === warning), result.stderr).toHaveLength(1);
    expect(lines.filter((line) => line.includes('unknown key'))).toHaveLength(2);
    expect(await readFile(file, 'utf8')).toBe(TEXT);
  });
});
