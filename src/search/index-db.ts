import { chmodSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { cacheDir, type Env } from '../config/paths.js';
import type { Logger } from '../core/contracts.js';

/**
 * The full-text index of every agent's messages (PRODUCT.md section 9): SQLite FTS5 in
 * `$XDG_CACHE_HOME/agentwatch/search.db` (0600 in a 0700 directory). One row per user or assistant
 * text block. Deleting it is always safe; a corrupt or foreign file is moved aside and rebuilt.
 *
 * Tokenizer: `unicode61` (letters of every script, diacritics folded) with `_` as a token
 * character, so `snake_case_names` stay one word; prefix queries (`refre*`) reach camelCase
 * and partial words. `trigram` also finds substrings inside words, at 2.4x the size, 3.8x the
 * build time and 3.3x the query time on the benchmark corpus (bench/search-tokenizers.mjs).
 */
export const SEARCH_DB_VERSION = 1;

export const searchDbPath = (env: Env): string => path.join(cacheDir(env), 'search.db');
/** The search's own discovery cache: byte offsets of what has been indexed, per file. */
export const searchCursorPath = (env: Env): string => path.join(cacheDir(env), 'search-cursor.db');

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS sessions (
    key TEXT PRIMARY KEY, agent TEXT NOT NULL, session_id TEXT NOT NULL, cwd TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL DEFAULT '', last_activity INTEGER NOT NULL DEFAULT 0, resume TEXT NOT NULL DEFAULT ''
  );
  CREATE TABLE IF NOT EXISTS seen (hash TEXT PRIMARY KEY) WITHOUT ROWID;
  CREATE VIRTUAL TABLE IF NOT EXISTS messages USING fts5(
    text, key UNINDEXED, role UNINDEXED, at UNINDEXED, tokenize = "unicode61 remove_diacritics 2 tokenchars '_'"
  );
`;

const open = (file: string): Database.Database => {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(SCHEMA);
  const version = db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'version'`).get();
  if (version === undefined) db.prepare(`INSERT INTO meta (key, value) VALUES ('version', ?)`).run(String(SEARCH_DB_VERSION));
  else if (version.value !== String(SEARCH_DB_VERSION)) throw new Error(`search index of version ${version.value}, expected ${SEARCH_DB_VERSION}`);
  // A damaged file often opens fine and fails on first use: check it now.
  db.prepare('SELECT count(*) FROM messages').get();
  return db;
};

/** Opens (or creates) the index; a corrupt, foreign or old one is moved aside (`.broken-<time>`) and rebuilt. */
export const openSearchDb = (env: Env, log?: Logger, file = searchDbPath(env)): { readonly db: Database.Database; readonly rebuilt: boolean } => {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    const db = open(file);
    chmodSync(file, 0o600);
    return { db, rebuilt: false };
  } catch (error) {
    const aside = `${file}.broken-${Date.now()}`;
    for (const suffix of ['', '-wal', '-shm']) {
      try {
        renameSync(`${file}${suffix}`, `${aside}${suffix}`);
      } catch {
        // absent
      }
    }
    log?.warn(`search index ${file} was unusable (${(error as Error).message}); moved to ${aside} and rebuilt`);
    const db = open(file);
    chmodSync(file, 0o600);
    return { db, rebuilt: true };
  }
};
