import type Database from 'better-sqlite3';
import type { Logger } from '../../core/contracts.js';
import { isOutdated, openOwnedDb } from '../../util/owned-db.js';

/**
 * The version of the table layout and of the meaning of a stored `state`: a cache of another
 * version is discarded and rebuilt. Bump it when the tables change, or when sessions are read by
 * rules that change what a state holds (states folded by the old rules must be read again); add
 * the new version to docs/cache.md.
 */
export const CACHE_SCHEMA_VERSION = 17;

// Rowid tables with large pages: rows of a few KB fit in one page (a WITHOUT ROWID table with
// 4 KiB pages spilled them into overflow pages, which made a cold start's write several times
// slower). Details sit in their own table, written in the same transaction as their core: a warm
// start selects every core, and with the details in the same rows it read all their pages too
// (the details are most of the bytes).
const SCHEMA = `
PRAGMA page_size = 65536;
CREATE TABLE files (
  path TEXT PRIMARY KEY NOT NULL,
  agent TEXT NOT NULL,
  session_id TEXT NOT NULL,
  offset INTEGER NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  state TEXT NOT NULL,
  state_hash INTEGER NOT NULL
);
CREATE TABLE details (
  path TEXT PRIMARY KEY NOT NULL,
  detail BLOB NOT NULL
);
CREATE TABLE databases (
  path TEXT PRIMARY KEY NOT NULL,
  agent TEXT NOT NULL,
  signature TEXT NOT NULL,
  listing TEXT NOT NULL
);
CREATE TABLE side_files (
  path TEXT PRIMARY KEY NOT NULL,
  agent TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  text TEXT NOT NULL
);
CREATE TABLE dirs (
  path TEXT PRIMARY KEY NOT NULL,
  identity TEXT NOT NULL,
  files TEXT NOT NULL,
  subdirs TEXT NOT NULL
);
PRAGMA user_version = ${CACHE_SCHEMA_VERSION};`;

/** Each table's columns, in SELECT and INSERT order. */
export const TABLE_COLUMNS = {
  files: 'path, agent, session_id, offset, size, mtime_ms, state, state_hash',
  details: 'path, detail',
  databases: 'path, agent, signature, listing',
  side_files: 'path, agent, size, mtime_ms, text',
  dirs: 'path, identity, files, subdirs',
} as const;

/** True for what an earlier version of agentwatch wrote: an earlier schema version, our table in it. */
const wroteEarlier = (db: Database.Database, version: number | undefined): boolean =>
  version !== undefined &&
  version > 0 &&
  version < CACHE_SCHEMA_VERSION &&
  db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'files'`).get() !== undefined;

/** The right version but not our layout (damaged, or written by a development build): rebuilt. */
const checkLayout = (db: Database.Database): void => {
  for (const [table, columns] of Object.entries(TABLE_COLUMNS)) {
    const found = (db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all(table) as string[]).join(', ');
    if (found !== columns) throw new Error(`table ${table} has columns (${found}), expected (${columns})`);
  }
};

/** Opens `file` if it is our cache at the current version; creates it when absent or empty, rebuilds it otherwise. */
export const openCacheDb = (file: string, log?: Logger): Database.Database =>
  openOwnedDb({
    file,
    busyTimeoutMs: 2000,
    version: CACHE_SCHEMA_VERSION,
    create: (db) => db.exec(SCHEMA),
    check: checkLayout,
    wroteEarlier,
    // A fresh cache takes its first write (a cold start's thousands of rows) in rollback-journal
    // mode, straight into the file; `openDiscoveryCache` turns WAL on after it. In WAL mode the
    // rows went to the log first and were copied again when the connection closed.
    wal: 'unless-new',
    privateDir: 'must',
    privateFile: 'must',
    unusable: 'remove',
    onRefused: (error) => {
      // A cache an earlier version wrote is expected after an upgrade: rebuilt without a warning.
      const say = isOutdated(error) ? log?.info : log?.warn;
      say?.(`discovery cache ${file} is ${isOutdated(error) ? 'from an earlier version' : 'unusable'} (${error.message}); rebuilding it`);
    },
  }).db;
