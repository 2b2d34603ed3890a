import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { isAgentKind, type AgentKind } from '../../core/agents.js';
import type { Logger } from '../../core/contracts.js';
import type { SessionState } from '../../core/session.js';
import { cacheDir, type Env } from '../../config/paths.js';
import { parseJson } from './skim.js';
import { sessionStateSchema } from './state-schema.js';

/**
 * The persistent discovery cache: per transcript file, the byte offset read so far and the folded
 * session state at exactly that offset, so a warm start restores instead of re-reading. It is a
 * pure optimisation: a missing, corrupt, foreign or outdated cache is discarded and rebuilt, and
 * deleting it is always safe.
 */

/** Bump when the table layout or the meaning of `state` changes: old caches are then rebuilt. */
export const CACHE_SCHEMA_VERSION = 1;
export const CACHE_FILE_NAME = 'discovery.sqlite';

export interface CachedFile {
  readonly path: string;
  readonly agent: AgentKind;
  readonly sessionId: string;
  readonly offset: number;
  readonly size: number;
  readonly mtimeMs: number;
  /** Inode of the file when the state was persisted (from the checkpoint), when known. */
  readonly ino?: number;
  readonly state: SessionState;
}

export interface DiscoveryCache {
  /** Where the cache lives (`:memory:` when the cache directory is unusable). */
  readonly file: string;
  /** The entry of one transcript, or undefined (unknown, or its row did not validate). */
  readonly get: (file: string) => CachedFile | undefined;
  /** True for a state object this cache handed out and nobody changed since: no need to write it back. */
  readonly isStored: (state: SessionState) => boolean;
  /** Deletes the rows of `agent` that `keep` rejects (transcripts deleted while nobody watched). */
  readonly prune: (agent: AgentKind, keep: (file: string) => boolean) => void;
  /** Upserts and deletes in one transaction. Failures are logged, never thrown. */
  readonly write: (upserts: readonly CachedFile[], deletes: readonly string[]) => void;
  readonly close: () => void;
}

export const discoveryCachePath = (env: Env): string => path.join(cacheDir(env), CACHE_FILE_NAME);

const SCHEMA = `
CREATE TABLE files (
  path TEXT PRIMARY KEY NOT NULL,
  agent TEXT NOT NULL,
  session_id TEXT NOT NULL,
  offset INTEGER NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  state TEXT NOT NULL
) WITHOUT ROWID;
PRAGMA user_version = ${CACHE_SCHEMA_VERSION};`;

interface Row {
  readonly path: string;
  readonly agent: string;
  readonly session_id: string;
  readonly offset: number;
  readonly size: number;
  readonly mtime_ms: number;
  readonly state: string;
}

const removeFiles = (file: string): void => {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
};

/** Opens `file` if it is our cache at the current version; creates it when absent or empty; throws otherwise. */
const openExisting = (file: string): Database.Database => {
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 2000');
    // Reading the header is what fails on a file that is not SQLite.
    const version = db.pragma('user_version', { simple: true }) as number;
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[];
    if (version === 0 && tables.length === 0) db.exec(SCHEMA);
    else if (version !== CACHE_SCHEMA_VERSION || !tables.some((t) => t.name === 'files')) {
      throw new Error(`schema version ${version}, expected ${CACHE_SCHEMA_VERSION}`);
    }
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
};

const openOrRebuild = (file: string, log?: Logger): Database.Database => {
  if (file === ':memory:') return openExisting(file);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  chmodSync(path.dirname(file), 0o700);
  let db: Database.Database;
  try {
    db = openExisting(file);
  } catch (error) {
    log?.warn(`discovery cache ${file} is unusable (${(error as Error).message}); rebuilding it`);
    removeFiles(file);
    db = openExisting(file);
  }
  chmodSync(file, 0o600);
  return db;
};

const rowToEntry = (file: string, row: Row): CachedFile | undefined => {
  if (!isAgentKind(row.agent)) return undefined;
  const state = sessionStateSchema.safeParse(parseJson(row.state));
  if (!state.success || state.data.sessionId !== row.session_id || state.data.agent !== row.agent) return undefined;
  const ino = state.data.checkpoint?.ino;
  return {
    path: file,
    agent: row.agent,
    sessionId: row.session_id,
    offset: row.offset,
    size: row.size,
    mtimeMs: row.mtime_ms,
    ...(ino === undefined ? {} : { ino }),
    state: state.data,
  };
};

/**
 * Opens (or rebuilds) the cache under `$XDG_CACHE_HOME/agentwatch/`. Never throws: when even a
 * fresh file cannot be created, it falls back to an in-memory cache and says so through `log`.
 */
export const openDiscoveryCache = (env: Env, log?: Logger, file = discoveryCachePath(env)): DiscoveryCache => {
  let db: Database.Database;
  let where = file;
  try {
    db = openOrRebuild(file, log);
  } catch (error) {
    log?.warn(`discovery cache disabled for this run: ${(error as Error).message}`);
    where = ':memory:';
    db = openOrRebuild(where);
  }
  // One query at open instead of one per transcript: a warm start asks for every row anyway.
  let rows: Map<string, Row>;
  // After a good preload only paths written since can have a row outside `rows`, so a cold start
  // asks the database nothing per transcript (a row another process adds meanwhile costs a re-read).
  let preloaded = true;
  try {
    const all = db.prepare('SELECT path, agent, session_id, offset, size, mtime_ms, state FROM files').all() as Row[];
    rows = new Map(all.map((row) => [row.path, row]));
  } catch (error) {
    log?.warn(`discovery cache read failed: ${(error as Error).message}`);
    rows = new Map();
    preloaded = false;
  }
  const writtenSincePreload = new Set<string>();
  const handedOut = new WeakSet<SessionState>();
  const select = db.prepare('SELECT path, agent, session_id, offset, size, mtime_ms, state FROM files WHERE path = ?');
  const upsert = db.prepare(
    `INSERT INTO files (path, agent, session_id, offset, size, mtime_ms, state) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(path) DO UPDATE SET agent = excluded.agent, session_id = excluded.session_id, offset = excluded.offset,
       size = excluded.size, mtime_ms = excluded.mtime_ms, state = excluded.state`,
  );
  const remove = db.prepare('DELETE FROM files WHERE path = ?');
  const writeAll = db.transaction((upserts: readonly CachedFile[], deletes: readonly string[]) => {
    for (const e of upserts) upsert.run(e.path, e.agent, e.sessionId, e.offset, e.size, e.mtimeMs, JSON.stringify(e.state));
    for (const p of deletes) remove.run(p);
  });
  let failures = 0;
  const failed = (what: string, error: unknown): void => {
    // One line per kind of trouble is enough: the cache only ever costs a re-read.
    if (failures++ === 0) log?.warn(`discovery cache ${what} failed: ${(error as Error).message}`);
  };

  return {
    file: where,
    get: (p) => {
      let row = rows.get(p);
      rows.delete(p);
      if (!row && (!preloaded || writtenSincePreload.has(p))) {
        try {
          row = select.get(p) as Row | undefined;
        } catch (error) {
          failed('read', error);
        }
      }
      if (!row) return undefined;
      const entry = rowToEntry(p, row);
      if (entry) handedOut.add(entry.state);
      return entry;
    },
    isStored: (state) => handedOut.has(state),
    prune: (agent, keep) => {
      try {
        const paths = (db.prepare('SELECT path FROM files WHERE agent = ?').pluck().all(agent) as string[]).filter((p) => !keep(p));
        if (paths.length === 0) return;
        writeAll([], paths);
        for (const p of paths) rows.delete(p);
      } catch (error) {
        failed('prune', error);
      }
    },
    write: (upserts, deletes) => {
      if (upserts.length === 0 && deletes.length === 0) return;
      try {
        writeAll(upserts, deletes);
        // The preloaded copies are stale now; `get` falls back to a query for these paths.
        for (const e of upserts) {
          rows.delete(e.path);
          writtenSincePreload.add(e.path);
        }
        for (const p of deletes) rows.delete(p);
      } catch (error) {
        failed('write', error);
      }
    },
    close: () => {
      if (db.open) db.close();
    },
  };
};
