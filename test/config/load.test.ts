import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { loadConfig, passphraseProblem, updateConfig } from '../../src/config/load.js';
import { configDir, configPath } from '../../src/config/paths.js';
import { CONFIG_KEYS } from '../../src/config/schema.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

let temp: TempHome;
beforeEach(async () => {
  temp = await makeTempHome();
});
afterEach(async () => {
  await temp.cleanup();
});

const mode = async (p: string): Promise<number> => (await stat(p)).mode & 0o777;
const readJson = async (p: string): Promise<Record<string, unknown>> => JSON.parse(await readFile(p, 'utf8')) as Record<string, unknown>;
const writeConfig = async (env: Record<string, string>, content: string): Promise<string> => {
  const file = configPath(env);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, content, { mode: 0o600 });
  return file;
};

describe('config location', () => {
  it('uses $XDG_CONFIG_HOME/agentwatch/config.json when set', () => {
    expect(configPath({ HOME: '/h', XDG_CONFIG_HOME: '/x' })).toBe('/x/agentwatch/config.json');
  });
  it('falls back to ~/.config/agentwatch/config.json', () => {
    expect(configPath({ HOME: '/h' })).toBe('/h/.config/agentwatch/config.json');
  });
  it('without HOME uses the account home from the user database, not the filesystem root', () => {
    // Only computes a path; nothing is read or written there.
    const accountHome = userInfo().homedir;
    expect(configPath({})).toBe(path.join(accountHome, '.config', 'agentwatch', 'config.json'));
    expect(configPath({})).not.toBe('/.config/agentwatch/config.json');
  });
});

describe('first run', () => {
  it('creates the file with exactly the documented keys, mode 0600 in a 0700 directory', async () => {
    const loaded = await loadConfig(temp.env, { write: true });
    expect(loaded.created).toBe(true);
    const file = configPath(temp.env);
    const stored = await readJson(file);
    expect(Object.keys(stored)).toEqual(CONFIG_KEYS);
    expect(stored).toMatchObject({
      window_minutes: 30,
      default_filter: '',
      notifications: false,
      notify_after_sec: 30,
      api_passphrase: '',
      tui: { theme: 'auto' },
      card_density: 'live',
      terminal: 'terminal',
      detail_width: 400,
      webhooks: [],
      agents: { amp: true, claude: true, codex: true, cursor: true, grok: true, kilo: true, kimi: true, opencode: true, pi: true },
    });
    expect(await mode(file)).toBe(0o600);
    expect(await mode(configDir(temp.env))).toBe(0o700);
  });

  it('generates api_salt once and keeps it stable across loads', async () => {
    const first = await loadConfig(temp.env, { write: true });
    expect(first.config.api_salt).toMatch(/^[A-Za-z0-9_-]{24,}$/);
    const second = await loadConfig(temp.env, { write: true });
    expect(second.config.api_salt).toBe(first.config.api_salt);
    const other = await makeTempHome();
    try {
      const third = await loadConfig(other.env, { write: true });
      expect(third.config.api_salt).not.toBe(first.config.api_salt);
    } finally {
      await other.cleanup();
    }
  });

  it('a read-only load (limits, --help) creates nothing', async () => {
    const loaded = await loadConfig(temp.env, { write: false });
    expect(loaded.config.window_minutes).toBe(30);
    await expect(stat(configPath(temp.env))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('back-fill', () => {
  it('adds missing keys, keeps existing values and unknown keys', async () => {
    const file = await writeConfig(
      temp.env,
      JSON.stringify({ window_minutes: 90, api_salt: 'keep-me', my_note: { x: 1 }, agents: { claude: false } }),
    );
    const loaded = await loadConfig(temp.env, { write: true });
    const stored = await readJson(file);
    expect(stored.window_minutes).toBe(90);
    expect(stored.api_salt).toBe('keep-me');
    expect(stored.my_note).toEqual({ x: 1 });
    expect(stored.notify_after_sec).toBe(30);
    expect(stored.agents).toMatchObject({ claude: false, codex: true, pi: true });
    expect(loaded.config.agents.claude).toBe(false);
  });

  it('does not rewrite a complete file (mtime and bytes unchanged)', async () => {
    await loadConfig(temp.env, { write: true });
    const file = configPath(temp.env);
    const before = await readFile(file, 'utf8');
    const beforeStat = await stat(file);
    await loadConfig(temp.env, { write: true });
    expect(await readFile(file, 'utf8')).toBe(before);
    expect((await stat(file)).ino).toBe(beforeStat.ino);
  });

  it('tightens a looser existing file and directory', async () => {
    const file = await writeConfig(temp.env, '{}');
    await chmod(file, 0o644);
    await chmod(configDir(temp.env), 0o755);
    await loadConfig(temp.env, { write: true });
    expect(await mode(file)).toBe(0o600);
    expect(await mode(configDir(temp.env))).toBe(0o700);
  });

  it('tightens modes even when nothing needs back-filling', async () => {
    await loadConfig(temp.env, { write: true });
    const file = configPath(temp.env);
    await chmod(file, 0o664);
    await loadConfig(temp.env, { write: true });
    expect(await mode(file)).toBe(0o600);
  });

  it('tightens the directory too when nothing needs writing, as the file (never a stricter one, never without write)', async () => {
    await loadConfig(temp.env, { write: true });
    const file = configPath(temp.env);
    const before = await readFile(file, 'utf8');
    await chmod(configDir(temp.env), 0o755);
    await loadConfig(temp.env, { write: true });
    expect(await mode(configDir(temp.env))).toBe(0o700);
    expect(await readFile(file, 'utf8')).toBe(before);
    await chmod(configDir(temp.env), 0o500);
    await loadConfig(temp.env, { write: true });
    expect(await mode(configDir(temp.env))).toBe(0o500);
    await chmod(configDir(temp.env), 0o755);
    await loadConfig(temp.env, { write: false });
    expect(await mode(configDir(temp.env))).toBe(0o755);
  });
});

describe('theme rules', () => {
  it('a file with no tui block gets "auto"', async () => {
    const file = await writeConfig(temp.env, JSON.stringify({ api_salt: 's' }));
    const loaded = await loadConfig(temp.env, { write: true });
    expect(loaded.config.tui.theme).toBe('auto');
    expect((await readJson(file)).tui).toEqual({ theme: 'auto' });
  });
  it('an existing "dark" stays', async () => {
    const file = await writeConfig(temp.env, JSON.stringify({ api_salt: 's', tui: { theme: 'dark' } }));
    const loaded = await loadConfig(temp.env, { write: true });
    expect(loaded.config.tui.theme).toBe('dark');
    expect((await readJson(file)).tui).toEqual({ theme: 'dark' });
  });
  it('an empty tui block is back-filled with "auto"', async () => {
    const file = await writeConfig(temp.env, JSON.stringify({ api_salt: 's', tui: {} }));
    await loadConfig(temp.env, { write: true });
    expect((await readJson(file)).tui).toEqual({ theme: 'auto' });
  });
});

describe('documented fallbacks', () => {
  it('card_density, detail_width and terminal fall back, say so, and leave the file as written', async () => {
    const file = await writeConfig(
      temp.env,
      JSON.stringify({ api_salt: 's', card_density: 'huge', detail_width: 5000, terminal: 'xterm' }),
    );
    const loaded = await loadConfig(temp.env, { write: true });
    expect(loaded.config.card_density).toBe('live');
    expect(loaded.config.detail_width).toBe(400);
    expect(loaded.config.terminal).toBe('terminal');
    expect(loaded.warnings).toHaveLength(3);
    expect(loaded.warnings.join('\n')).toMatch(/card_density "huge".*"live"/);
    expect(loaded.warnings.join('\n')).toMatch(/detail_width 5000 .*300\.\.2000.*400/);
    const stored = await readJson(file);
    expect(stored.card_density).toBe('huge');
    expect(stored.detail_width).toBe(5000);
    expect(stored.terminal).toBe('xterm');
  });
  it('valid values pass through without warnings', async () => {
    await writeConfig(temp.env, JSON.stringify({ api_salt: 's', card_density: 'rich', detail_width: 300, terminal: 'kitty' }));
    const loaded = await loadConfig(temp.env, { write: true });
    expect(loaded.config).toMatchObject({ card_density: 'rich', detail_width: 300, terminal: 'kitty' });
    expect(loaded.warnings).toEqual([]);
  });
  it('a non-integer detail_width falls back', async () => {
    await writeConfig(temp.env, JSON.stringify({ api_salt: 's', detail_width: '500' }));
    expect((await loadConfig(temp.env, { write: true })).config.detail_width).toBe(400);
  });
});

describe('bad input is never repaired silently', () => {
  it('invalid JSON: names file, line and column; file byte-identical', async () => {
    const text = '{\n  "window_minutes": 30\n  "editor": "vim"\n}\n';
    const file = await writeConfig(temp.env, text);
    const error = await loadConfig(temp.env, { write: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(`${file}:3:3`);
    expect(await readFile(file, 'utf8')).toBe(text);
  });
  it('truncated JSON points at the end', async () => {
    const text = '{"window_minutes": 30,';
    const file = await writeConfig(temp.env, text);
    await expect(loadConfig(temp.env, { write: true })).rejects.toThrow(`${file}:1:23`);
    expect(await readFile(file, 'utf8')).toBe(text);
  });
  it('a wrongly typed value warns naming the key, the value and what it takes, reads as its default, and stays in the file', async () => {
    const file = await writeConfig(temp.env, JSON.stringify({ window_minutes: 'thirty', notifications: 'yes' }));
    const loaded = await loadConfig(temp.env, { write: true });
    expect(loaded.config).toMatchObject({ window_minutes: 30, notifications: false });
    expect(loaded.warnings).toEqual([
      'window_minutes "thirty" is not a whole number in 1..10080; using 30',
      'notifications "yes" is not true or false; using false',
    ]);
    // The back-fill adds the missing keys; what the user wrote is theirs to fix.
    expect(await readJson(file)).toMatchObject({ window_minutes: 'thirty', notifications: 'yes', notify_after_sec: 30 });
  });
  it('a trailing comma is placed at the comma, and every mistake is listed at once; file byte-identical', async () => {
    const text = '{\n  "window_minutes": 30,\n  "tui": { "theme": \'dark\' },\n}\n';
    const file = await writeConfig(temp.env, text);
    const error = (await loadConfig(temp.env, { write: true }).catch((e: unknown) => e)) as ConfigError;
    expect(error.message).toBe(`${file}:3:21: not valid JSON (Unexpected character "'" (JSON strings take double quotes)); also 3:29 (a trailing comma (JSON takes none before }))`);
    expect(await readFile(file, 'utf8')).toBe(text);
  });
  it.each(['', '  \n\t\n', '\uFEFF'])('an empty or blank file (%j) means the defaults, and is filled in like a missing one', async (text) => {
    const file = await writeConfig(temp.env, text);
    const loaded = await loadConfig(temp.env, { write: true });
    expect(loaded.config.window_minutes).toBe(30);
    expect(loaded.warnings).toEqual([]);
    expect(Object.keys(await readJson(file))).toEqual(CONFIG_KEYS);
  });
  it('a leading UTF-8 byte-order mark is skipped, not reported as invalid JSON', async () => {
    await writeConfig(temp.env, '\uFEFF{"window_minutes": 20}');
    const loaded = await loadConfig(temp.env, { write: true });
    expect(loaded.stored.window_minutes).toBe(20);
  });
  it('a top-level array is rejected', async () => {
    await writeConfig(temp.env, '[]');
    await expect(loadConfig(temp.env, { write: true })).rejects.toThrow(/expected a JSON object/);
  });
  it('a file where the config directory belongs is a ConfigError naming it, and stays untouched', async () => {
    const dir = configDir(temp.env);
    await mkdir(path.dirname(dir), { recursive: true });
    await writeFile(dir, 'not a directory');
    const error = (await loadConfig(temp.env, { write: true }).catch((e: unknown) => e)) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.code).toBe('E_CONFIG_IO');
    expect(error.message).toContain(`${dir}: cannot create the config directory`);
    expect(await readFile(dir, 'utf8')).toBe('not a directory');
  });
  it.each([
    [{ name: 'a', url: 'http://x/', enabled: 'no' }, 'enabled: Invalid input: expected boolean'],
    ['http://x/', 'entry: Invalid input: expected object'],
    [{ name: 7, url: 'http://x/' }, 'name: Invalid input: expected string'],
    [{ name: 'a', url: { href: 'http://x/' } }, 'url: url must be an http:// or https:// URL'],
    [{ name: 'a', url: 'http://x/', secret: 5 }, 'secret: Invalid input: expected string'],
    [{ name: 'a', url: 'http://x/', events: 'waiting' }, 'events: Invalid input: expected array'],
    [{ name: 'a', url: 'http://x/', agents: ['claude', 1] }, 'agents.1: agents must list agent kinds'],
    [{ name: 'a', url: 'http://x/', signature: true }, 'signature: signature must be'],
  ])('a wrongly typed value in a webhook entry (%j) keeps only that entry from running, naming the path; the file keeps it', async (entry, message) => {
    const file = await writeConfig(temp.env, JSON.stringify({ webhooks: [entry, { name: 'ok', url: 'http://127.0.0.1:9/ok' }] }));
    const loaded = await loadConfig(temp.env, { write: true });
    expect(loaded.config.webhooks.map((w) => w.name)).toEqual(['ok']);
    expect(loaded.invalidWebhooks).toHaveLength(1);
    expect(loaded.invalidWebhooks[0]?.problems.join('; ')).toContain(message);
    expect((await readJson(file)).webhooks).toEqual([entry, { name: 'ok', url: 'http://127.0.0.1:9/ok' }]);
  });
  it('an unknown default_filter reads as "" with a warning listing the valid values', async () => {
    await writeConfig(temp.env, JSON.stringify({ default_filter: 'busy' }));
    const loaded = await loadConfig(temp.env, { write: true });
    expect(loaded.config.default_filter).toBe('');
    expect(loaded.warnings).toEqual([expect.stringMatching(/^default_filter "busy" is not one of "", "active", "idle", "waiting", .*; using ""$/)]);
  });
});

describe('api_passphrase', () => {
  it('a passphrase shorter than 12 characters is refused, file untouched', async () => {
    const text = JSON.stringify({ api_passphrase: 'short' });
    const file = await writeConfig(temp.env, text);
    await expect(loadConfig(temp.env, { write: true })).rejects.toThrow(/at least 12 characters/);
    expect(await readFile(file, 'utf8')).toBe(text);
  });
  it('counts characters as code points, not UTF-16 units: seven emoji are too short', async () => {
    // Each of these is one character but two UTF-16 code units.
    expect(passphraseProblem('🔑'.repeat(7))).toMatch(/at least 12 characters/);
    expect(passphraseProblem(` ${'🔑'.repeat(11)} `)).toMatch(/at least 12 characters/);
    expect(passphraseProblem('🔑'.repeat(12))).toBeUndefined();
    const text = JSON.stringify({ api_passphrase: '🔑'.repeat(7) });
    const file = await writeConfig(temp.env, text);
    await expect(loadConfig(temp.env, { write: true })).rejects.toThrow(/at least 12 characters/);
    expect(await readFile(file, 'utf8')).toBe(text);
  });
  it('passphraseProblem applies the same rule to typed input', () => {
    expect(passphraseProblem('eleven-char')).toMatch(/at least 12 characters/);
    expect(passphraseProblem('   padded   ')).toMatch(/at least 12 characters/);
    expect(passphraseProblem('twelve-chars')).toBeUndefined();
  });
  it('AGENTWATCH_API_PASSPHRASE overrides the file and is never written', async () => {
    const env = { ...temp.env, AGENTWATCH_API_PASSPHRASE: 'from-the-environment' };
    const created = await loadConfig(env, { write: true });
    expect(created.config.api_passphrase).toBe('from-the-environment');
    const file = configPath(env);
    expect(await readFile(file, 'utf8')).not.toContain('from-the-environment');
    await updateConfig(env, (stored) => ({ ...stored, editor: 'vim' }));
    expect(await readFile(file, 'utf8')).not.toContain('from-the-environment');
    expect((await readJson(file)).api_passphrase).toBe('');
  });
  it('the env value wins over a file value', async () => {
    await writeConfig(temp.env, JSON.stringify({ api_passphrase: 'the file passphrase' }));
    const loaded = await loadConfig({ ...temp.env, AGENTWATCH_API_PASSPHRASE: 'the env passphrase!' }, { write: true });
    expect(loaded.config.api_passphrase).toBe('the env passphrase!');
  });
});

describe('a stored passphrase that is too short (a fresh-user audit)', () => {
  it('is refused naming the field once, with how to fix it; the file is left as it is', async () => {
    const text = JSON.stringify({ api_passphrase: 'short', api_salt: 'kept' });
    const file = await writeConfig(temp.env, text);
    const error = (await loadConfig(temp.env, { write: true }).catch((e: unknown) => e)) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(
      `${file}: invalid configuration: api_passphrase must be at least 12 characters; run agentwatch passphrase to set a new one, or edit the file, or set AGENTWATCH_API_PASSPHRASE (which overrides it)`,
    );
    expect(error.message.match(/api_passphrase/g)).toHaveLength(1);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('is never used while a valid AGENTWATCH_API_PASSPHRASE overrides it: a warning, not a refusal', async () => {
    const text = JSON.stringify({ api_passphrase: 'short', api_salt: 'kept' });
    const file = await writeConfig(temp.env, text);
    const loaded = await loadConfig({ ...temp.env, AGENTWATCH_API_PASSPHRASE: 'a valid override passphrase' }, { write: false });
    expect(loaded.config.api_passphrase).toBe('a valid override passphrase');
    expect(loaded.warnings).toContain('api_passphrase is shorter than 12 characters; it is not used while AGENTWATCH_API_PASSPHRASE overrides it (agentwatch passphrase sets a new one)');
    // An override that is itself too short overrides nothing: the stored one is refused as before.
    await expect(loadConfig({ ...temp.env, AGENTWATCH_API_PASSPHRASE: 'tiny' }, { write: false })).rejects.toThrow(/api_passphrase must be at least 12 characters/);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it("shortPassphrase: 'report' loads it and says why a normal load refuses it; updateConfig replaces it", async () => {
    const file = await writeConfig(temp.env, JSON.stringify({ api_passphrase: 'short', api_salt: 'kept', my_own_key: 1 }));
    const loaded = await loadConfig(temp.env, { write: false, shortPassphrase: 'report' });
    expect(loaded.passphraseRefused).toMatch(/api_passphrase must be at least 12 characters; run agentwatch passphrase/);
    // A change that leaves it alone keeps it as the user wrote it; one that sets a new one must be valid.
    await updateConfig(temp.env, (stored) => ({ ...stored, editor: 'vim' }));
    expect(await readJson(file)).toMatchObject({ api_passphrase: 'short', editor: 'vim' });
    await expect(updateConfig(temp.env, (stored) => ({ ...stored, api_passphrase: 'still short' }))).rejects.toThrow(/api_passphrase must be at least 12 characters/);
    await updateConfig(temp.env, (stored) => ({ ...stored, api_passphrase: 'a new long passphrase' }));
    expect(await readJson(file)).toMatchObject({ api_passphrase: 'a new long passphrase', api_salt: 'kept', my_own_key: 1 });
    expect((await loadConfig(temp.env, { write: false })).passphraseRefused).toBeUndefined();
  });
});

describe('"api_salt": "" (a fresh-user audit)', () => {
  it('is replaced by a generated salt, and the load says so (the token changes with it)', async () => {
    const file = await writeConfig(temp.env, JSON.stringify({ api_salt: '', api_passphrase: 'a long enough passphrase' }));
    const loaded = await loadConfig(temp.env, { write: true });
    const salt = (await readJson(file)).api_salt as string;
    expect(salt).toMatch(/^[A-Za-z0-9_-]{24,}$/);
    expect(loaded.config.api_salt).toBe(salt);
    expect(loaded.warnings).toEqual([expect.stringMatching(/^api_salt was empty: generated a new salt and saved it in the file \(the API token is derived from it, so tokens made with another salt no longer work; agentwatch passphrase --show prints the current one\)$/)]);
    // Said once: the next load finds the salt.
    expect((await loadConfig(temp.env, { write: true })).warnings).toEqual([]);
  });

  it('a first run, or a file without the key, gets its salt without a word', async () => {
    expect((await loadConfig(temp.env, { write: true })).warnings).toEqual([]);
    await writeConfig(temp.env, JSON.stringify({ window_minutes: 45 }));
    expect((await loadConfig(temp.env, { write: true })).warnings).toEqual([]);
  });
});

describe('webhook entries', () => {
  it('valid entries run; invalid ones are reported by name with what is wrong', async () => {
    const file = await writeConfig(
      temp.env,
      JSON.stringify({
        webhooks: [
          { name: 'slack', url: 'https://hooks.example.com/x', secret: 's3', events: ['waiting'], agents: ['claude'] },
          { name: 'ftp', url: 'ftp://example.com' },
          { name: 'typo', url: 'http://127.0.0.1:9/x', events: ['wating'] },
          { url: 'http://127.0.0.1:9/y' },
          { name: 'off', url: 'http://127.0.0.1:9/z', enabled: false },
        ],
      }),
    );
    const loaded = await loadConfig(temp.env, { write: true });
    expect(loaded.config.webhooks.map((w) => w.name)).toEqual(['slack', 'off']);
    expect(loaded.config.webhooks[0]).toMatchObject({ events: ['waiting'], agents: ['claude'], enabled: true });
    expect(loaded.config.webhooks[1]?.enabled).toBe(false);
    expect(loaded.invalidWebhooks.map((w) => w.name)).toEqual(['ftp', 'typo', '#4']);
    expect(loaded.invalidWebhooks[0]?.problems.join()).toMatch(/url must be an http/);
    expect(loaded.invalidWebhooks[1]?.problems).toEqual([
      'events.0: events must list activity states (active, idle, waiting, thinking, compacting, reading, writing, running, searching, browsing, spawning): "wating" is not one (did you mean "waiting"?)',
    ]);
    expect(loaded.invalidWebhooks[2]?.problems.join()).toMatch(/name/);
    // The invalid entries stay in the file for the user to fix.
    expect(((await readJson(file)).webhooks as unknown[]).length).toBe(5);
  });
  it('a correctly typed value with a wrong meaning disables only its entry', async () => {
    await writeConfig(
      temp.env,
      JSON.stringify({
        webhooks: [
          { name: 'ok', url: 'http://127.0.0.1:9/a' },
          { name: 'blank-name', url: 'http://127.0.0.1:9/b' },
          { name: ' ', url: 'http://127.0.0.1:9/c' },
          { name: 'agent', url: 'http://127.0.0.1:9/d', agents: ['claud'] },
          { name: 'mode', url: 'http://127.0.0.1:9/e', signature: 'hmac' },
          { name: 'std', url: 'http://127.0.0.1:9/f', signature: 'standard-webhooks', secret: 'not-whsec' },
        ],
      }),
    );
    const loaded = await loadConfig(temp.env, { write: true });
    expect(loaded.config.webhooks.map((w) => w.name)).toEqual(['ok', 'blank-name']);
    expect(loaded.invalidWebhooks.map((w) => w.name)).toEqual(['#3', 'agent', 'mode', 'std']);
    expect(loaded.invalidWebhooks[1]?.problems.join()).toMatch(/agents\.0: agents must list agent kinds \(amp, .*\): "claud" is not one \(did you mean "claude"\?\)$/);
    expect(loaded.invalidWebhooks[2]?.problems.join()).toMatch(/signature must be/);
    expect(loaded.invalidWebhooks[3]?.problems.join()).toMatch(/^secret: /);
  });
});

describe('effective config', () => {
  it('is frozen', async () => {
    const { config } = await loadConfig(temp.env, { write: true });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.agents)).toBe(true);
  });
});

describe('configNotices', () => {
  it('formats one line per fallback and per invalid webhook', async () => {
    const { configNotices } = await import('../../src/config/notices.js');
    await writeConfig(temp.env, JSON.stringify({ card_density: 'x', webhooks: [{ name: 'bad', url: 'nope' }] }));
    const loaded = await loadConfig(temp.env, { write: true });
    const lines = configNotices(loaded.path, loaded);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/config\.json: card_density "x" .*"live"$/);
    expect(lines[1]).toMatch(/webhook "bad" is invalid and will not run: url: /);
  });
});
