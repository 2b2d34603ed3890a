import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { cacheDir, type Env } from '../config/paths.js';
import type { Logger } from '../core/contracts.js';
import { openOwnedDb } from '../util/owned-db.js';

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
const SEARCH_DB_VERSION = 2;

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

/** The version a file holds (0 when it holds nothing); throws for a database of something else, which must not get our tables added to it. */
const versionOf = (db: Database.Database): number | undefined => {
  const tables = db.prepare<[], { name: string }>(`SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'messages_%'`).all();
  const foreign = tables.find((t) => !OUR_TABLES.has(t.name));
  if (foreign) throw new Error(`${FOREIGN} (it has a table "${foreign.name}")`);
  if (tables.length === 0) return 0;
  const version = tables.some((t) => t.name === 'meta') ? db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'version'`).get() : undefined;
  return version === undefined ? undefined : Number(version.value);
};

const ensureTables = (db: Database.Database): void => {
  db.exec(SCHEMA);
  db.prepare(`INSERT OR IGNORE INTO meta (key, value) VALUES ('version', ?)`).run(String(SEARCH_DB_VERSION));
  // A damaged file often opens fine and fails on first use: check it now.
  db.prepare('SELECT count(*) FROM messages').get();
  db.prepare('SELECT count(*) FROM sessions').get();
};

const FOREIGN = 'not an agentwatch search index';

/** True for a copy that holds someone else's database: never deleted. */
const holdsForeign = (copy: string): boolean => {
  try {
    const db = new Database(copy, { readonly: true, fileMustExist: true });
    try {
      versionOf(db);
      return false;
    } finally {
      db.close();
    }
  } catch (error) {
    return (error as Error).message.startsWith(FOREIGN);
  }
};

/**
 * Removes the copies of our own index moved aside earlier (`search.db.broken-<time>`): one is
 * kept only until the index rebuilt from nothing opens again as a good one, or another is moved
 * aside. A copy of a foreign database stays. Best effort (a read-only folder keeps them).
 */
const removeBrokenCopies = (file: string): void => {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}.broken-`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || /-(wal|shm|journal)$/.test(name)) continue;
    const copy = path.join(dir, name);
    if (holdsForeign(copy)) continue;
    try {
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${copy}${suffix}`, { force: true });
    } catch {
      // Kept: removed by a later open that can.
    }
  }
};

const open = (file: string, log?: Logger): { readonly db: Database.Database; readonly rebuilt: boolean } => {
  const opened = openOwnedDb({
    file,
    busyTimeoutMs: 5000,
    version: SEARCH_DB_VERSION,
    versionOf,
    create: ensureTables,
    check: ensureTables,
    wal: 'always',
    // A session excluded after it was indexed is removed from the file, not only from the tables.
    pragmas: ['secure_delete = ON'],
    privateDir: 'try',
    privateFile: 'try',
    // One copy at most: moving another aside removes the earlier ones.
    unusable: {
      aside: (path) => {
        removeBrokenCopies(path);
        return `${path}.broken-${Date.now()}`;
      },
    },
    onRefused: (error, aside) => log?.warn(`search index ${file} was unusable (${error.message}); ${aside === undefined ? '' : `moved to ${aside} and `}rebuilt`),
  });
  if (!opened.rebuilt && file !== ':memory:') removeBrokenCopies(file);
  return opened;
};

/**
 * Opens (or creates) the index. A corrupt, foreign or older one is moved aside
 * (`search.db.broken-<time>`), said once on the log, and rebuilt: `rebuilt` tells the caller to
 * forget what it had recorded as indexed.
 */
export const openSearchDb = (env: Env, log?: Logger, file = searchDbPath(env)): { readonly db: Database.Database; readonly rebuilt: boolean } => open(file, log);

/** True when the index holds no session (of `agents`, when given): nothing of them was found to read. */
export const holdsNoSession = (db: Database.Database, agents?: readonly string[]): boolean =>
  agents === undefined
    ? db.prepare('SELECT 1 FROM sessions LIMIT 1').get() === undefined
    : agents.length === 0 || db.prepare(`SELECT 1 FROM sessions WHERE agent IN (${agents.map(() => '?').join(', ')}) LIMIT 1`).get(...agents) === undefined;

/** An index in memory, for `--demo`: its generated sessions must not reach the user's index. */
export const openMemorySearchDb = (): Database.Database => open(':memory:').db;

/** Deletes the index and the offsets of what it held (`--reindex`, or when its scope widened). */
export const removeSearchIndex = (env: Env): void => {
  for (const file of [searchDbPath(env), searchCursorPath(env)]) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  }
};
