import { chmod, lstat, mkdir, readdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, updateConfig } from '../../src/config/load.js';
import { configDir, configLockPath, configPath, sessionNamesPath } from '../../src/config/paths.js';
import { configSchema } from '../../src/config/schema.js';
import { setSessionName } from '../../src/config/session-names.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { canDropPrivileges, giveToNobody, runCliUnprivileged } from './helpers/unprivileged.js';

/**
 * Read-only, symlinked and concurrently written configs: every command
 * runs, nothing the user wrote is overwritten or replaced, and a write that cannot happen is said
 * once on stderr.
 */

let temp: TempHome;
beforeEach(async () => {
  temp = await makeTempHome('agentwatch-rel-config-');
});
afterEach(async () => {
  await chmod(configDir(temp.env), 0o700).catch(() => undefined);
  await temp.cleanup();
});

const complete = (): string => `${JSON.stringify(configSchema.parse({ api_salt: 'fixed-salt', window_minutes: 45 }), null, 2)}\n`;
const incomplete = '{ "window_minutes": 45, "api_salt": "fixed-salt" }\n';
const mode = async (p: string): Promise<number> => (await stat(p)).mode & 0o777;

const writeConfig = async (content: string, fileMode = 0o600): Promise<string> => {
  const file = configPath(temp.env);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, content, { mode: fileMode });
  await chmod(file, fileMode);
  return file;
};

describe('reading takes no lock', () => {
  it('a complete config loads at once while another process holds the lock', async () => {
    await writeConfig(complete());
    // A live owner (this process): before the fix the load waited 10 s, then failed.
    await writeFile(configLockPath(temp.env), String(process.pid));
    const started = Date.now();
    const loaded = await loadConfig(temp.env, { write: true });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(loaded.config.window_minutes).toBe(45);
    expect(loaded.warnings).toEqual([]);
  });
});

describe('read-only config (0400 file)', () => {
  it('an incomplete 0400 config is not written: byte-identical, mode kept, one warning, in-memory defaults', async () => {
    const file = await writeConfig(incomplete, 0o400);
    const loaded = await loadConfig(temp.env, { write: true });
    expect(await readFile(file, 'utf8')).toBe(incomplete);
    expect(await mode(file)).toBe(0o400);
    expect(loaded.config.window_minutes).toBe(45);
    expect(loaded.config.notify_after_sec).toBe(30);
    expect(loaded.warnings).toEqual([expect.stringMatching(/cannot write the back-filled config to .*config\.json \(the file is read-only, mode 0400\); running on in-memory defaults/)]);
    expect(await readdir(configDir(temp.env))).toEqual(['config.json']);
  });

  it('an explicit change (passphrase, settings) to a 0400 config is refused with a clear message, file untouched', async () => {
    const file = await writeConfig(complete(), 0o400);
    const error = (await updateConfig(temp.env, (stored) => ({ ...stored, api_passphrase: 'a long enough passphrase' })).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(`${file}: cannot save the change: the file is read-only (mode 0400); make it writable first`);
    expect(await readFile(file, 'utf8')).toBe(complete());
    expect(await mode(file)).toBe(0o400);
  });

  it('a complete 0400 config loads without a warning and stays 0400', async () => {
    const file = await writeConfig(complete(), 0o400);
    const loaded = await loadConfig(temp.env, { write: true });
    expect(loaded.warnings).toEqual([]);
    expect(await mode(file)).toBe(0o400);
  });
});

describe('symlinked config (dotfile managers)', () => {
  const linkTo = async (content: string, targetMode = 0o600): Promise<{ link: string; target: string }> => {
    const dotfiles = path.join(temp.root, 'dotfiles');
    await mkdir(dotfiles, { recursive: true });
    const target = path.join(dotfiles, 'agentwatch.json');
    await writeFile(target, content, { mode: targetMode });
    await chmod(target, targetMode);
    const link = configPath(temp.env);
    await mkdir(path.dirname(link), { recursive: true, mode: 0o700 });
    await symlink(path.relative(path.dirname(link), target), link);
    return { link, target };
  };

  it('back-fill writes through the link to its target; the link stays a link; no temp files left', async () => {
    const { link, target } = await linkTo(incomplete);
    const before = await readlink(link);
    const loaded = await loadConfig(temp.env, { write: true });
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(before);
    const written = JSON.parse(await readFile(target, 'utf8')) as Record<string, unknown>;
    expect(written.window_minutes).toBe(45);
    expect(written.notify_after_sec).toBe(30);
    expect(loaded.warnings).toEqual([]);
    expect(await readdir(path.dirname(target))).toEqual(['agentwatch.json']);
    expect((await readdir(configDir(temp.env))).sort()).toEqual(['config.json']);
  });

  it('a passphrase change and a session rename write through links too', async () => {
    const { link, target } = await linkTo(complete());
    await updateConfig(temp.env, (stored) => ({ ...stored, api_passphrase: 'a long enough passphrase' }));
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(target, 'utf8'))).toMatchObject({ api_passphrase: 'a long enough passphrase', window_minutes: 45 });

    const namesTarget = path.join(temp.root, 'dotfiles', 'names.json');
    await writeFile(namesTarget, '{"a":"kept"}\n');
    await symlink(namesTarget, sessionNamesPath(temp.env));
    await setSessionName(temp.env, 'b', 'new');
    expect((await lstat(sessionNamesPath(temp.env))).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(namesTarget, 'utf8'))).toEqual({ a: 'kept', b: 'new' });
  });

  it('a dangling link is created at its target, not replaced by a file', async () => {
    const dotfiles = path.join(temp.root, 'dotfiles');
    await mkdir(dotfiles, { recursive: true });
    const target = path.join(dotfiles, 'not-yet.json');
    await mkdir(configDir(temp.env), { recursive: true });
    await symlink(target, configPath(temp.env));
    const loaded = await loadConfig(temp.env, { write: true });
    expect(loaded.created).toBe(true);
    expect((await lstat(configPath(temp.env))).isSymbolicLink()).toBe(true);
    expect(JSON.parse(await readFile(target, 'utf8'))).toMatchObject({ window_minutes: 30 });
  });

  it('a stricter mode on the target is kept by a back-fill (0200 stays 0200, a loose 0644 becomes 0600)', async () => {
    const { target } = await linkTo(incomplete, 0o644);
    await loadConfig(temp.env, { write: true });
    expect(await mode(target)).toBe(0o600);
    await writeFile(target, incomplete);
    await chmod(target, 0o200);
    await updateConfig(temp.env, (stored) => stored);
    expect(await mode(target)).toBe(0o200);
  });
});

describe('corrupt configs are refused, named and left byte-identical', () => {
  const corrupt: [string, string | Buffer][] = [
    ['truncated object', '{ "window_minutes": 30, '],
    ['trailing comma', '{ "window_minutes": 30, }'],
    ['comment', '// mine\n{}'],
    ['single quotes', "{ 'window_minutes': 30 }"],
    ['top-level array', '[]'],
    ['top-level string', '"config"'],
    ['top-level null', 'null'],
    ['NaN', '{ "window_minutes": NaN }'],
    ['short passphrase', '{ "api_passphrase": "short" }'],
    ['binary', Buffer.from([0x00, 0xff, 0x13, 0x37, 0x7b])],
    ['UTF-16 file', Buffer.from('\ufeff{"window_minutes": 30}', 'utf16le')],
    ['two documents', '{}{}'],
    ['deep nesting', `${'['.repeat(5000)}${']'.repeat(5000)}`],
  ];

  it.each(corrupt)('%s', async (_name, content) => {
    const file = configPath(temp.env);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(file, content);
    const before = await readFile(file);
    const error = (await loadConfig(temp.env, { write: true }).then(
      () => undefined,
      (e: unknown) => e,
    )) as Error | undefined;
    expect(error?.message).toContain(file);
    expect(await readFile(file)).toEqual(before);
    expect(await readdir(configDir(temp.env))).toEqual(['config.json']);
  });
});

describe('an invalid value reads as its key\'s default, is named once, and stays in the file as written', () => {
  const invalid: [string, string, string][] = [
    ['wrong type', '{ "window_minutes": "30" }', 'window_minutes'],
    ['out of range', '{ "window_minutes": 0 }', 'window_minutes'],
    ['negative', '{ "notify_after_sec": -5 }', 'notify_after_sec'],
    ['agents not an object', '{ "agents": true }', 'agents'],
    ['agent switch not a boolean', '{ "agents": { "claude": "yes" } }', 'agents.claude'],
    ['webhooks not an array', '{ "webhooks": {} }', 'webhooks'],
    ['unknown filter', '{ "default_filter": "busy" }', 'default_filter'],
    ['theme typo', '{ "tui": { "theme": "dim" } }', 'tui.theme'],
    // Never rewritten either: JSON would write it back as null.
    ['huge number', '{ "window_minutes": 1e400 }', 'window_minutes'],
  ];

  it.each(invalid)('%s', async (_name, content, key) => {
    const file = await writeConfig(content);
    const loaded = await loadConfig(temp.env, { write: true });
    const defaults = configSchema.parse({});
    const head = key.split('.')[0] as keyof typeof defaults;
    expect(loaded.config[head]).toEqual(defaults[head]);
    expect(loaded.warnings.filter((line) => line.startsWith(`${key} `))).toHaveLength(1);
    // The back-fill adds what is missing; the value as written stays for the user to fix.
    const written = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    const original = JSON.parse(content) as Record<string, unknown>;
    const value = original[head];
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) expect(written[head]).toMatchObject(value);
    else expect(written[head]).toEqual(value);
    expect(await readdir(configDir(temp.env))).toEqual(['config.json']);
  });

  it.each([
    ['empty file', ''],
    ['whitespace', '  \n\t'],
  ])('%s: the defaults, as a missing file', async (_name, content) => {
    await writeConfig(content);
    const loaded = await loadConfig(temp.env, { write: true });
    expect(loaded.config).toEqual(configSchema.parse({ api_salt: loaded.config.api_salt }));
    expect(loaded.warnings).toEqual([]);
  });
});

describe('concurrent writers', () => {
  it('20 loads back-filling at once and 10 renames: one salt, every name kept, no temp files', async () => {
    await writeConfig('{ "window_minutes": 45 }\n');
    const loads = Array.from({ length: 20 }, () => loadConfig(temp.env, { write: true }));
    const renames = Array.from({ length: 10 }, (_, i) => setSessionName(temp.env, `s${i}`, `name ${i}`));
    const loaded = await Promise.all(loads);
    await Promise.all(renames);
    const salts = new Set(loaded.map((l) => l.config.api_salt));
    const stored = JSON.parse(await readFile(configPath(temp.env), 'utf8')) as { api_salt: string };
    expect(salts).toEqual(new Set([stored.api_salt]));
    const names = JSON.parse(await readFile(sessionNamesPath(temp.env), 'utf8')) as Record<string, string>;
    expect(Object.keys(names)).toHaveLength(10);
    expect((await readdir(configDir(temp.env))).sort()).toEqual(['config.json', 'session-names.json']);
  });
});

// Permission bits do not stop root: these run the CLI as an ordinary user (nobody, via setpriv, when the suite runs as root).
describe.runIf(canDropPrivileges())('read-only config directory, as an unprivileged user', () => {
  const roDir = async (content: string): Promise<string> => {
    const file = await writeConfig(content);
    await giveToNobody(temp.root);
    await chmod(configDir(temp.env), 0o500);
    return file;
  };

  it('a complete config: sessions runs (exit 0), nothing on stderr, nothing written', async () => {
    const file = await roDir(complete());
    const result = await runCliUnprivileged(['sessions', '--all', '--json'], temp.env);
    expect(result.stderr).not.toMatch(/EACCES|error|warn|cannot/i);
    expect(result.stderr).toMatch(/^No sessions in any directory/);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([]);
    expect(await readFile(file, 'utf8')).toBe(complete());
    expect(await readdir(configDir(temp.env))).toEqual(['config.json']);
  });

  it('an incomplete config: exit 0, one warning naming the file, file byte-identical', async () => {
    const file = await roDir(incomplete);
    const result = await runCliUnprivileged(['sessions', '--all', '--json'], temp.env);
    expect(result.code).toBe(0);
    const lines = result.stderr.split('\n').filter((line) => line.startsWith('agentwatch:'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`cannot write the back-filled config to ${file} (EACCES`);
    expect(await readFile(file, 'utf8')).toBe(incomplete);
  });
});
