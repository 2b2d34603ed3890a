import { chmodSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { cacheDir, type Env } from '../config/paths.js';
import type { Logger } from '../core/contracts.js';
import { boundPageCache } from '../util/sqlite-memory.js';

/**
 * The full-text index of every agent's messages (docs/search.md): SQLite FTS5 in
 * `$XDG_CACHE_HOME/agentwatch/search.db` (0600 in a 0700 directory). One row per user or assistant
 * message (its text blocks; never tool output or thinking) with its session key, agent, role, time
 * and cwd. Deleting it is always safe; a corrupt, foreign or older file is moved aside and rebuilt.
 *
 * Tokenizer: `unicode61` (letters of every script, case and Latin diacritics folded; `_`, `-`,
 * `.` separate words) over text prepared by segment.ts: characters of scripts written without
 * spaces are words of their own, and camelCase parts sit in a second column. Chosen over
 * `unicode61 tokenchars '_'` and `trigram` by bench/search-tokenizers.mjs (docs/search.md).
 */
export const SEARCH_DB_VERSION = 2;

export const searchDbPath = (env: Env): string => path.join(cacheDir(env), 'search.db');
/** The search's own discovery cache: byte offsets of what has been indexed, per file. */
export const searchCursorPath = (env: Env): string => path.join(cacheDir(env), 'search-cursor.db');

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS sessions (
    key TEXT PRIMARY KEY, agent TEXT NOT NULL, session_id TEXT NOT NULL, cwd TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL DEFAULT '', last_activity INTEGER NOT NULL DEFAULT 0, resume TEXT NOT NULL DEFAULT '',
    sidechain INTEGER NOT NULL DEFAULT 0, parent TEXT NOT NULL DEFAULT ''
  );
  CREATE TABLE IF NOT EXISTS seen (hash INTEGER PRIMARY KEY);
  CREATE TABLE IF NOT EXISTS db_marks (agent TEXT NOT NULL, session_id TEXT NOT NULL, stamp TEXT NOT NULL, PRIMARY KEY (agent, session_id)) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS db_files (agent TEXT PRIMARY KEY, path TEXT NOT NULL, stat TEXT NOT NULL);
  CREATE VIRTUAL TABLE IF NOT EXISTS messages USING fts5(
    text, parts, key UNINDEXED, agent UNINDEXED, role UNINDEXED, at UNINDEXED, cwd UNINDEXED,
    tokenize = "unicode61 remove_diacritics 2"
  );
`;

const OUR_TABLES = new Set(['meta', 'sessions', 'seen', 'db_marks', 'db_files', 'messages']);

/** Moves `file` (and its WAL) out of the way, for a look later; never deletes what might be someone's. */
const moveAside = (file: string): string => {
  const aside = `${file}.broken-${Date.now()}`;
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      renameSync(`${file}${suffix}`, `${aside}${suffix}`);
    } catch {
      rmSync(`${file}${suffix}`, { force: true });
    }
  }
  return aside;
};

const open = (file: string): Database.Database => {
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 5000');
    boundPageCache(db);
    // A database of something else must not get our tables added to it.
    const tables = db.prepare<[], { name: string }>(`SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'messages_%'`).all();
    const foreign = tables.find((t) => !OUR_TABLES.has(t.name));
    if (foreign) throw new Error(`not an agentwatch search index (it has a table "${foreign.name}")`);
    if (tables.length > 0) {
      const version = tables.some((t) => t.name === 'meta') ? db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'version'`).get() : undefined;
      if (version?.value !== String(SEARCH_DB_VERSION)) throw new Error(`search index of version ${version?.value ?? 'unknown'}, expected ${SEARCH_DB_VERSION}`);
    }
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // A session excluded after it was indexed is removed from the file, not only from the tables.
    db.pragma('secure_delete = ON');
    db.exec(SCHEMA);
    db.prepare(`INSERT OR IGNORE INTO meta (key, value) VALUES ('version', ?)`).run(String(SEARCH_DB_VERSION));
    // A damaged file often opens fine and fails on first use: check it now.
    db.prepare('SELECT count(*) FROM messages').get();
    db.prepare('SELECT count(*) FROM sessions').get();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
};

/**
 * Opens (or creates) the index. A corrupt, foreign or older one is moved aside
 * (`search.db.broken-<time>`), said once on the log, and rebuilt: `rebuilt` tells the caller to
 * forget what it had recorded as indexed.
 */
export const openSearchDb = (env: Env, log?: Logger, file = searchDbPath(env)): { readonly db: Database.Database; readonly rebuilt: boolean } => {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    chmodSync(path.dirname(file), 0o700);
  } catch {
    // not ours to change (a shared cache dir): the file itself is still 0600
  }
  let rebuilt = false;
  let db: Database.Database;
  try {
    db = open(file);
  } catch (error) {
    const aside = moveAside(file);
    log?.warn(`search index ${file} was unusable (${(error as Error).message}); moved to ${aside} and rebuilt`);
    db = open(file);
    rebuilt = true;
  }
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      chmodSync(`${file}${suffix}`, 0o600);
    } catch {
      // -wal/-shm exist only while open in WAL mode
    }
  }
  return { db, rebuilt };
};

/** True when the index holds no session (of `agents`, when given): nothing of them was found to read. */
export const holdsNoSession = (db: Database.Database, agents?: readonly string[]): boolean =>
  agents === undefined
    ? db.prepare('SELECT 1 FROM sessions LIMIT 1').get() === undefined
    : agents.length === 0 || db.prepare(`SELECT 1 FROM sessions WHERE agent IN (${agents.map(() => '?').join(', ')}) LIMIT 1`).get(...agents) === undefined;

/** An index in memory, for `--demo`: its generated sessions must not reach the user's index. */
export const openMemorySearchDb = (): Database.Database => open(':memory:');

/** Deletes the index and the offsets of what it held (`--reindex`, or when its scope widened). */
export const removeSearchIndex = (env: Env): void => {
  for (const file of [searchDbPath(env), searchCursorPath(env)]) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  }
};
