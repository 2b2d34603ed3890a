import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { fixture } from './vendor-server.js';

/** Which credential fixture to write for each agent (omitted = that agent is not logged in). */
export interface Logins {
  readonly claude?: string;
  readonly codex?: string;
  readonly grok?: string;
  readonly kimi?: string;
  /** The ItemTable fixture whose rows go into a real state.vscdb. */
  readonly cursor?: string;
}

export interface TempHome {
  readonly dir: string;
  /** A clean environment: temp HOME and XDG dirs, TZ=UTC, loopback base URLs, nothing else. */
  readonly env: Record<string, string>;
  /** Every file under the home, for "nothing was written" checks. */
  listFiles(): Promise<string[]>;
  remove(): Promise<void>;
}

const writeIn = async (file: string, text: string): Promise<void> => {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text, { mode: 0o600 });
};

/** Cursor's global state DB as Cursor writes it: ItemTable(key, value) with BLOB values. */
export const writeCursorDb = async (file: string, rows: Readonly<Record<string, string>>): Promise<void> => {
  await mkdir(path.dirname(file), { recursive: true });
  const db = new Database(file);
  try {
    db.exec('CREATE TABLE IF NOT EXISTS ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
    const insert = db.prepare('INSERT INTO ItemTable (key, value) VALUES (?, ?)');
    for (const [key, value] of Object.entries(rows)) if (!key.startsWith('_')) insert.run(key, Buffer.from(value, 'utf8'));
  } finally {
    db.close();
  }
};

const walk = async (dir: string): Promise<string[]> => {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)])));
  return nested.flat().sort();
};

export const makeTempHome = async (logins: Logins, baseUrl?: string): Promise<TempHome> => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'agentwatch-limits-'));
  const config = path.join(dir, '.config');
  if (logins.claude) await writeIn(path.join(dir, '.claude', '.credentials.json'), fixture(logins.claude));
  if (logins.codex) await writeIn(path.join(dir, '.codex', 'auth.json'), fixture(logins.codex));
  if (logins.grok) await writeIn(path.join(dir, '.grok', 'auth.json'), fixture(logins.grok));
  if (logins.kimi) await writeIn(path.join(dir, '.kimi-code', 'credentials', 'kimi-code.json'), fixture(logins.kimi));
  if (logins.cursor) {
    const rows = JSON.parse(fixture(logins.cursor)) as Record<string, string>;
    await writeCursorDb(path.join(config, 'Cursor', 'User', 'globalStorage', 'state.vscdb'), rows);
  }
  const env: Record<string, string> = {
    HOME: dir,
    USER: 'fixture-user',
    XDG_CONFIG_HOME: config,
    XDG_CACHE_HOME: path.join(dir, '.cache'),
    XDG_DATA_HOME: path.join(dir, '.local', 'share'),
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TZ: 'UTC',
    ...(baseUrl
      ? {
          AGENTWATCH_CLAUDE_API_URL: baseUrl,
          AGENTWATCH_CODEX_API_URL: baseUrl,
          AGENTWATCH_GROK_API_URL: baseUrl,
          AGENTWATCH_KIMI_API_URL: baseUrl,
          AGENTWATCH_CURSOR_WEB_URL: baseUrl,
        }
      : {}),
  };
  return { dir, env, listFiles: () => walk(dir), remove: () => rm(dir, { recursive: true, force: true }) };
};

/** Every credential fixture the tests log in with, for full five-agent runs. */
export const ALL_LOGINS: Logins = {
  claude: 'claude/credentials.json',
  codex: 'codex/auth.json',
  grok: 'grok/auth.json',
  kimi: 'kimi/credentials.json',
  cursor: 'cursor/itemtable.json',
};
