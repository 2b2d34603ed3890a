import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deriveToken } from '../src/sinks/http/token.js';
import { runCli } from './helpers/cli.js';
import { runInPty } from './helpers/pty.js';
import { makeTempHome, type TempHome } from './helpers/temp-home.js';

/**
 * `agentwatch passphrase` and the first interactive `--api` run, as real processes. Prompts need a
 * terminal: those tests run the CLI under a real pseudo-terminal with util-linux `script`.
 */

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const home = async (): Promise<TempHome> => {
  const made = await makeTempHome();
  cleanups.push(made.cleanup);
  return made;
};

const configFile = (h: TempHome): string => path.join(h.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json');
const readConfig = async (h: TempHome): Promise<Record<string, unknown>> => JSON.parse(await readFile(configFile(h), 'utf8')) as Record<string, unknown>;

describe('agentwatch passphrase --show', () => {
  it('prints the token of AGENTWATCH_API_PASSPHRASE on stdout, one line', async () => {
    const h = await home();
    const result = await runCli(['passphrase', '--show'], { env: { ...h.env, AGENTWATCH_API_PASSPHRASE: '  from the environment  ' } });
    expect(result.code).toBe(0);
    const salt = (await readConfig(h)).api_salt as string;
    expect(salt).not.toBe('');
    expect(result.stdout).toBe(`${await deriveToken('from the environment', salt)}\n`);
    expect(result.stderr).toMatch(/AGENTWATCH_API_PASSPHRASE/);
  });

  it('prints the token of the passphrase in the config file', async () => {
    const h = await home();
    await mkdir(path.dirname(configFile(h)), { recursive: true });
    await writeFile(configFile(h), JSON.stringify({ api_passphrase: 'pippo-pippo-pippo', api_salt: 'lazyagent-api-v1' }));
    const result = await runCli(['passphrase', '--show'], { env: h.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${await deriveToken('pippo-pippo-pippo', 'lazyagent-api-v1')}\n`);
    expect(result.stderr).toBe('');
  });

  it('exits 1 with a clear message when no passphrase is configured', async () => {
    const h = await home();
    const result = await runCli(['passphrase', '--show'], { env: h.env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^agentwatch: no API passphrase is configured .*run agentwatch passphrase/);
  });

  it('exits 1 with "at least 12 characters" for a short environment passphrase', async () => {
    const h = await home();
    const result = await runCli(['passphrase', '--show'], { env: { ...h.env, AGENTWATCH_API_PASSPHRASE: 'too short' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/at least 12 characters/);
  });

  it('counts characters, not UTF-16 units: seven emoji are too short', async () => {
    const h = await home();
    const result = await runCli(['passphrase', '--show'], { env: { ...h.env, AGENTWATCH_API_PASSPHRASE: '🔑'.repeat(7) } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/at least 12 characters/);
  });
});

describe('agentwatch passphrase (set / rotate)', () => {
  it('needs a terminal: exit 1 without one, nothing written', async () => {
    const h = await home();
    const result = await runCli(['passphrase'], { env: h.env, input: 'some passphrase\nsome passphrase\n' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/needs a terminal/);
    await expect(stat(configFile(h))).rejects.toThrow(/ENOENT/);
  });

  it('refuses a passphrase given as an argument (exit 2)', async () => {
    const h = await home();
    const result = await runCli(['passphrase', 'secret-on-the-command-line'], { env: h.env });
    expect(result.code).toBe(2);
  });

  it('asks twice with hidden input, re-asks on a short or mismatched entry, saves, prints the token once', async () => {
    const h = await home();
    await mkdir(path.dirname(configFile(h)), { recursive: true });
    await writeFile(configFile(h), JSON.stringify({ window_minutes: 45, my_own_key: true, api_salt: 'kept-salt' }));
    const result = await runInPty(['passphrase'], h.env, [
      // Seven characters in fourteen UTF-16 code units: too short.
      { after: /New API passphrase/, send: `${'🔑'.repeat(7)}\r` },
      { after: /New API passphrase/, send: 'the first good one\r' },
      { after: /Repeat the passphrase/, send: 'a different one\r' },
      { after: /New API passphrase/, send: 'rotated passphrase 2\r' },
      { after: /Repeat the passphrase/, send: 'rotated passphrase 2\r' },
    ]);
    expect(result.code).toBe(0);
    expect(result.output.match(/the passphrase must be at least 12 characters/g)).toHaveLength(1);
    expect(result.output).toMatch(/the two entries differ/);
    // Hidden: nothing typed is echoed.
    expect(result.output, result.output).not.toMatch(/rotated passphrase 2|the first good one|🔑/u);
    const saved = await readConfig(h);
    expect(saved).toMatchObject({ api_passphrase: 'rotated passphrase 2', api_salt: 'kept-salt', window_minutes: 45, my_own_key: true });
    expect(result.output).toContain(await deriveToken('rotated passphrase 2', 'kept-salt'));
  });

  it('the first interactive --api run asks for a passphrase, saves it, prints the token and serves', async () => {
    const h = await home();
    const result = await runInPty(
      ['--api', '--host', '127.0.0.1:0', '--demo'],
      h.env,
      [
        { after: /New API passphrase/, send: 'first run passphrase\r' },
        { after: /Repeat the passphrase/, send: 'first run passphrase\r' },
      ],
      /API listening on http:\/\/127\.0\.0\.1:\d+/,
    );
    expect(result.output).toMatch(/None is configured yet/);
    expect(result.output).toMatch(/API listening on/);
    expect(result.output).not.toContain('first run passphrase');
    const saved = await readConfig(h);
    expect(saved.api_passphrase).toBe('first run passphrase');
    expect(result.output).toContain(await deriveToken('first run passphrase', saved.api_salt as string));
    expect(result.code).toBe(0);
  });
});
