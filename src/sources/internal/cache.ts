import path from 'node:path';
import { crc32 } from 'node:zlib';
import Database from 'better-sqlite3';
import { isAgentKind, type AgentKind } from '../../core/agents.js';
import type { Logger } from '../../core/contracts.js';
import type { FileCheckpoint, SessionState } from '../../core/session.js';
import { cacheDir, type Env } from '../../config/paths.js';
import { openCacheDb, TABLE_COLUMNS } from './cache-db.js';
import { openDatabaseRecords, type DatabaseRecords } from './cache-databases.js';
import { openDirListings, type DirListings } from './cache-dir-listings.js';
import { openSideTexts, type SideTexts } from './cache-side-texts.js';
import { decodeCore, encodeCore, type CoreRow } from './core-codec.js';
import { lazyState, restoredBy, unreadDetailKey } from './lazy-detail.js';
import { releasePageCache } from '../../util/sqlite-memory.js';

/**
 * The persistent discovery cache: per transcript file, the byte offset read so far and the folded
 * session state at exactly that offset, so a warm start restores instead of re-reading; per SQLite
 * database, the file signature and session stamps of the last complete read, so an unchanged
 * database is restored without a query; per directory of the walks, its entries at its inode,
 * mtime and ctime, so an unchanged directory is stat'ed instead of listed (walk.ts). It is a pure
 * optimisation: a missing, corrupt, foreign or outdated cache is discarded and rebuilt, and
 * deleting it is always safe.
 *
 * A state is stored in two parts: its core (what listing it and deriving its activity need) and
 * its detail (usage per message, recent tools and messages). A warm start parses the cores only;
 * each detail stays in the file until something reads it (the detail view, or the fold when the
 * session changes), so restoring 10,000 sessions costs little more than stat'ing their files.
 *
 * Trust: rows are written only by `write` below, from typed states, each core with a checksum
 * (CRC-32) of its text. A row whose checksum, agent or session id does not match, or whose core
 * does not decode with the right type at every position (core-codec.ts), is dropped (the file is
 * read again); a detail is validated with zod when it is read. Validating every core with zod
 * instead cost more than the stats of a warm start.
 */

export { CACHE_SCHEMA_VERSION } from './cache-db.js';
const CACHE_FILE_NAME = 'discovery.sqlite';

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

export interface DiscoveryCache extends Omit<DirListings, 'pending' | 'flush'>, Omit<SideTexts, 'pending' | 'flush'>, DatabaseRecords {
  /** Where the cache lives (`:memory:` when the cache directory is unusable). */
  readonly file: string;
  /** The entry of one transcript, or undefined (unknown, or its row did not validate). */
  readonly get: (file: string) => CachedFile | undefined;
  /** True for a state object this cache handed out and nobody changed since: no need to write it back. */
  readonly isStored: (state: SessionState) => boolean;
  /**
   * A state equal to `state`, whose row this cache holds at `checkpoint` (written from exactly
   * `state`), with its detail left in the row until first read, as a warm start restores it. What
   * a monitor that started without a cache holds once its first discovery is persisted.
   * Undefined when the row is not there at that checkpoint (a write failed, another process wrote).
   */
  readonly lazyTwin: (state: SessionState, checkpoint: FileCheckpoint) => SessionState | undefined;
  /** Gives back the pages a burst of reads left in the connection's cache (after many `lazyTwin`s). */
  readonly releasePages: () => void;
  /**
   * Reads the stored details of those of `states` this cache restored and nothing has read yet in
   * one pass over the table, when they are enough of its rows for a pass to beat a lookup each
   * (a one-shot listing of every session's detail; docs/performance.md). Each is handed out once,
   * when its state's detail is first read.
   */
  readonly prefetchDetails: (states: Iterable<SessionState>) => void;
  /** Deletes the rows of `agent` that `keep` rejects (sessions deleted while nobody watched). */
  readonly prune: (agent: AgentKind, keep: (file: string) => boolean) => void;
  /**
   * `prune` over the rows of `agent` that nothing asked for since the cache opened: after a
   * discovery pass that asked for the row of every file it found, those are the transcripts
   * deleted while nobody watched, found without judging every row.
   */
  readonly pruneUnasked: (agent: AgentKind, keep: (file: string) => boolean) => void;
  /** Upserts and deletes in one transaction. Failures are logged, never thrown. */
  readonly write: (upserts: readonly CachedFile[], deletes: readonly string[]) => void;
  readonly close: () => void;
}

export const discoveryCachePath = (env: Env): string => path.join(cacheDir(env), CACHE_FILE_NAME);

/** Columns in SELECT order (raw rows: arrays are cheaper than objects for 10,000 rows). */
type Row = [path: string, agent: string, sessionId: string, offset: number, size: number, mtimeMs: number, state: string, stateHash: number];
const COLUMNS = 'path, agent, session_id, offset, size, mtime_ms, state, state_hash';

/**
 * CRC-32 of a core's text: catches a damaged or hand-edited row. Native: an FNV loop in
 * JavaScript over every core was a tenth of a warm start.
 */
const checksum = (text: string): number => crc32(text);

/**
 * The two stored parts of a state. The detail is a BLOB: read back as a Buffer outside the JS
 * heap, so thousands of restored-but-unread details cost the garbage collector nothing.
 */
const splitState = (state: SessionState, row: CoreRow): { core: string; detail: Buffer } => {
  const { usageByMessage, recentTools, recentMessages } = state;
  return { core: encodeCore(state, row), detail: Buffer.from(JSON.stringify({ usageByMessage, recentTools, recentMessages })) };
};

/** A stored detail with the checkpoint of its row. */
interface StoredDetail {
  readonly offset: number;
  readonly mtimeMs: number;
  readonly detail: Buffer;
}

/** Every stored detail (of `wanted` rows only, when given), by path: one pass over the table. */
const everyDetail = (db: Database.Database, wanted?: ReadonlySet<string>): Map<string, StoredDetail> => {
  const found = new Map<string, StoredDetail>();
  const every = db.prepare('SELECT f.path, f.offset, f.mtime_ms, d.detail FROM files f JOIN details d ON d.path = f.path').raw();
  for (const [p, offset, mtimeMs, detail] of every.iterate() as Iterable<[string, number, number, Buffer]>) {
    if (wanted === undefined || wanted.has(p)) found.set(p, { offset, mtimeMs, detail });
  }
  return found;
};

/** The detail of the row `path` at `offset`/`mtimeMs` (a row rewritten since, by another process, is not it). */
type DetailLoader = (path: string, offset: number, mtimeMs: number) => unknown;

const rowToEntry = (file: string, row: Row, loadDetail: DetailLoader, owner: object): CachedFile | undefined => {
  const [, agent, sessionId, offset, size, mtimeMs, stateText, stateHash] = row;
  if (!isAgentKind(agent) || typeof stateText !== 'string' || checksum(stateText) !== stateHash) return undefined;
  const core = decodeCore(stateText, { path: file, offset, size, mtimeMs });
  if (core === undefined || core.sessionId !== sessionId || core.agent !== agent) return undefined;
  const ino = core.checkpoint?.ino;
  const state = lazyState(core, () => loadDetail(file, offset, mtimeMs), owner, file);
  return ino === undefined ? { path: file, agent, sessionId, offset, size, mtimeMs, state } : { path: file, agent, sessionId, offset, size, mtimeMs, ino, state };
};

/**
 * Opens (or rebuilds) the cache under `$XDG_CACHE_HOME/agentwatch/`. Never throws: when even a
 * fresh file cannot be created, it falls back to an in-memory cache and says so through `log`.
 */
export const openDiscoveryCache = (env: Env, log?: Logger, file = discoveryCachePath(env)): DiscoveryCache => {
  let db: Database.Database;
  let where = file;
  try {
    db = openCacheDb(file, log);
  } catch (error) {
    log?.warn(`discovery cache disabled for this run: ${(error as Error).message}`);
    where = ':memory:';
    db = openCacheDb(where);
  }
  // One query at open instead of one per transcript: a warm start asks for every row anyway.
  let rows: Map<string, Row>;
  // After a good preload only paths written since can have a row outside `rows`, so a cold start
  // asks the database nothing per transcript (a row another process adds meanwhile costs a re-read).
  let preloaded = true;
  let storedRows = 0;
  try {
    const all = db.prepare(`SELECT ${COLUMNS} FROM files`).raw().all() as Row[];
    rows = new Map(all.map((row) => [row[0], row]));
    storedRows = rows.size;
    releasePageCache(db);
  } catch (error) {
    log?.warn(`discovery cache read failed: ${(error as Error).message}`);
    rows = new Map();
    preloaded = false;
  }
  const writtenSincePreload = new Set<string>();
  // Readers of another process share the cache in WAL mode from the first write on (see cache-db.ts).
  let walAfterWrite = where !== ':memory:' && db.pragma('journal_mode', { simple: true }) !== 'wal';
  const toWal = (): void => {
    if (!walAfterWrite) return;
    try {
      db.pragma('journal_mode = WAL');
      walAfterWrite = false;
    } catch {
      // Another process holds the file (it turns WAL on itself when it opens): tried after the next write.
    }
  };
  const sides = openSideTexts(db, log);
  const listings = openDirListings(db, log);
  const databases = openDatabaseRecords(db, (what, error) => failed(what, error));
  // What the states this cache handed out carry (lazy-detail.ts): a mark, not a WeakSet of 10,000.
  const owner = {};
  const select = db.prepare(`SELECT ${COLUMNS} FROM files WHERE path = ?`).raw();
  // The detail of the row at that checkpoint: its core's row says which checkpoint the detail is of.
  const selectDetail = db.prepare('SELECT d.detail FROM files f JOIN details d ON d.path = f.path WHERE f.path = ? AND f.offset = ? AND f.mtime_ms = ?').pluck();
  const hasRow = db.prepare('SELECT 1 FROM files WHERE path = ? AND offset = ? AND mtime_ms = ?').pluck();
  // Details read in one pass (prefetchDetails, or the first detail read after `close`: a one-shot
  // command prints details after stopping), each handed out once.
  let readAhead: Map<string, StoredDetail> | undefined;
  let readAllAfterClose = false;
  const loadDetail: DetailLoader = (p, offset, mtimeMs) => {
    try {
      if (!db.open && !readAllAfterClose && where !== ':memory:') {
        readAllAfterClose = true;
        const again = new Database(where, { readonly: true, fileMustExist: true });
        try {
          readAhead = everyDetail(again);
        } finally {
          again.close();
        }
      }
      const early = readAhead?.get(p);
      if (early) {
        readAhead?.delete(p);
        if (early.offset === offset && early.mtimeMs === mtimeMs) return early.detail;
      }
      return db.open ? selectDetail.get(p, offset, mtimeMs) : undefined;
    } catch (error) {
      failed('read', error);
      return undefined;
    }
  };
  const upsert = db.prepare(
    `INSERT INTO files (${TABLE_COLUMNS.files}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(path) DO UPDATE SET agent = excluded.agent, session_id = excluded.session_id, offset = excluded.offset,
       size = excluded.size, mtime_ms = excluded.mtime_ms, state = excluded.state, state_hash = excluded.state_hash`,
  );
  const upsertDetail = db.prepare(`INSERT INTO details (${TABLE_COLUMNS.details}) VALUES (?, ?) ON CONFLICT(path) DO UPDATE SET detail = excluded.detail`);
  const removeFile = db.prepare('DELETE FROM files WHERE path = ?');
  const removeDetail = db.prepare('DELETE FROM details WHERE path = ?');
  const writeAll = db.transaction((upserts: readonly CachedFile[], deletes: readonly string[]) => {
    for (const e of upserts) {
      const { core, detail } = splitState(e.state, e);
      upsert.run(e.path, e.agent, e.sessionId, e.offset, e.size, e.mtimeMs, core, checksum(core));
      upsertDetail.run(e.path, detail);
    }
    for (const p of deletes) {
      removeFile.run(p);
      removeDetail.run(p);
    }
    sides.flush();
    listings.flush();
  });
  const pendingWrites = (): boolean => sides.pending() || listings.pending();
  let failures = 0;
  const storedPaths = (agent: AgentKind): string[] => db.prepare('SELECT path FROM files WHERE agent = ?').pluck().all(agent) as string[];
  const pruneAmong = (agent: AgentKind, keep: (file: string) => boolean, candidates: () => string[]): void => {
    try {
      const paths = candidates().filter((p) => !keep(p));
      if (paths.length === 0) return;
      writeAll([], paths);
      for (const p of paths) rows.delete(p);
    } catch (error) {
      failed('prune', error);
    }
  };
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
      return rowToEntry(p, row, loadDetail, owner);
    },
    isStored: (state) => restoredBy(state) === owner,
    releasePages: () => {
      if (db.open) releasePageCache(db);
    },
    prefetchDetails: (states) => {
      const wanted = new Set<string>();
      for (const state of states) {
        const key = unreadDetailKey(state, owner);
        if (key !== undefined) wanted.add(key);
      }
      // A pass reads every row: it pays once a quarter of them are wanted (docs/performance.md).
      if (!db.open || wanted.size === 0 || wanted.size * 4 < storedRows) return;
      try {
        readAhead = everyDetail(db, wanted);
      } catch (error) {
        failed('read', error);
      } finally {
        releasePageCache(db);
      }
    },
    lazyTwin: (state, checkpoint) => {
      try {
        if (!db.open || hasRow.get(checkpoint.path, checkpoint.offset, checkpoint.mtimeMs) === undefined) return undefined;
      } catch (error) {
        failed('read', error);
        return undefined;
      }
      // Through the stored text, as a warm start restores it: the same values and V8 hidden classes.
      const row = { path: checkpoint.path, offset: checkpoint.offset, size: checkpoint.size, mtimeMs: checkpoint.mtimeMs };
      const core = decodeCore(encodeCore(state, row), row);
      return core === undefined ? undefined : lazyState(core, () => loadDetail(checkpoint.path, checkpoint.offset, checkpoint.mtimeMs), owner, checkpoint.path);
    },
    prune: (agent, keep) => pruneAmong(agent, keep, () => storedPaths(agent)),
    // After a good preload, the rows nothing asked for are still in `rows`.
    pruneUnasked: (agent, keep) => pruneAmong(agent, keep, () => (preloaded ? [...rows.values()].filter((row) => row[1] === agent).map((row) => row[0]) : storedPaths(agent))),
    write: (upserts, deletes) => {
      if (upserts.length === 0 && deletes.length === 0 && !pendingWrites()) return;
      try {
        writeAll(upserts, deletes);
        toWal();
        releasePageCache(db);
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
    sideText: sides.sideText,
    rememberSideText: sides.rememberSideText,
    forgetUnaskedSideTexts: sides.forgetUnaskedSideTexts,
    listing: listings.listing,
    rememberListing: listings.rememberListing,
    forgetUnaskedListings: listings.forgetUnaskedListings,
    ...databases,
    close: () => {
      if (!db.open) return;
      if (pendingWrites()) {
        try {
          writeAll([], []);
        } catch (error) {
          failed('write', error);
        }
      }
      db.close();
    },
  };
};
