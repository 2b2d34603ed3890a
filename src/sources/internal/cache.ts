import path from 'node:path';
import { crc32 } from 'node:zlib';
import Database from 'better-sqlite3';
import { isAgentKind, type AgentKind } from '../../core/agents.js';
import type { Logger } from '../../core/contracts.js';
import type { DiagnosticCounts, FileCheckpoint, SessionState } from '../../core/session.js';
import { cacheDir, type Env } from '../../config/paths.js';
import { parseJson } from './skim.js';
import { decodeCore, decodeDiagnosticCounts, encodeCore, encodeDiagnostics, type CoreRow } from './core-codec.js';
import { lazyState, restoredBy, unreadDetailKey } from './lazy-detail.js';
import { isOutdated, openOwnedDb } from '../../util/owned-db.js';
import { releasePageCache } from '../../util/sqlite-memory.js';
import type { DirListingCache } from './walk.js';

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
 * instead cost more than the stats of a warm start (about 30 µs a row before V8 warms up).
 */

/**
 * The version of the table layout and of the meaning of a stored `state`: a cache of another
 * version is discarded and rebuilt. Bump it when the tables change, or when sessions are read by
 * rules that change what a state holds (states folded by the old rules must be read again); add
 * the new version to docs/cache.md.
 */
export const CACHE_SCHEMA_VERSION = 14;
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

/** A side file's text and the size and mtime it had when read. */
export interface CachedText {
  readonly size: number;
  readonly mtimeMs: number;
  readonly text: string;
}

/** What a SQLite source recorded after its last complete read of one database. */
export interface CachedDatabase {
  readonly agent: AgentKind;
  /** Sizes and mtimes of the database and its journals (see sqlite/signature.ts). */
  readonly signature: string;
  /** `now` of the read (listings that depend on time, like cursor's 48 h, age). */
  readonly listedAt: number;
  /** Session id -> the listing stamp its persisted state was replayed at. */
  readonly stamps: ReadonlyMap<string, string>;
  /**
   * What the listing itself found it could not use (a Cursor composer that is not JSON): counts
   * by code, per session id the diagnostic named ('' for none).
   */
  readonly diagnostics?: ReadonlyMap<string, DiagnosticCounts>;
}

export interface DiscoveryCache extends DirListingCache {
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
   * (a one-shot listing of every session's detail: 7,000 random lookups took 110 ms, one pass
   * 20-40). Each is handed out once, when its state's detail is first read.
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
  /**
   * What a side file (a session's title or name file) held when last read, with its size and
   * mtime then: a warm start that finds it unchanged reads it from here (side-text.ts). Handed
   * out once (the row stays): a later read of the file is of a change.
   */
  readonly sideText: (file: string) => CachedText | undefined;
  /** Remembers (or, with undefined, forgets) a side file's text; written with the next `write`, or on `close`. */
  readonly rememberSideText: (file: string, agent: AgentKind, text: CachedText | undefined) => void;
  /** Forgets the side files of `agent` nothing asked for since the cache opened (after a first pass: the deleted ones). */
  readonly forgetUnaskedSideTexts: (agent: AgentKind) => void;
  /**
   * Forgets the listings of directories under `root` (itself included) nothing asked for since the
   * cache opened: after a walk of `root`, those of directories deleted meanwhile.
   */
  readonly forgetUnaskedListings: (root: string) => void;
  /** The record of a database's last complete read, or undefined. */
  readonly getDatabase: (dbPath: string) => CachedDatabase | undefined;
  /** Records (or, with undefined, forgets) a database's last complete read. Failures are logged, never thrown. */
  readonly putDatabase: (dbPath: string, record: CachedDatabase | undefined) => void;
  readonly close: () => void;
}

export const discoveryCachePath = (env: Env): string => path.join(cacheDir(env), CACHE_FILE_NAME);

// Rowid tables with large pages: rows of a few KB fit in one page (a WITHOUT ROWID table with
// 4 KiB pages spilled them into overflow pages and cost 4x the time to write a cold start's rows).
// Details sit in their own table, written in the same transaction as their core: a warm start
// selects every core, and with the details in the same rows it read all their pages too (the
// details are about 85 % of the bytes; the SELECT took a third longer).
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

const TABLE_COLUMNS = {
  files: 'path, agent, session_id, offset, size, mtime_ms, state, state_hash',
  details: 'path, detail',
  databases: 'path, agent, signature, listing',
  side_files: 'path, agent, size, mtime_ms, text',
  dirs: 'path, identity, files, subdirs',
} as const;

// A listing's names joined by '/', which no file name holds: cheaper to split than JSON to parse.
const NAME_SEPARATOR = '/';
const joinNames = (names: readonly string[]): string => names.join(NAME_SEPARATOR);
const splitNames = (text: string): string[] => (text === '' ? [] : text.split(NAME_SEPARATOR));

/** A remembered listing as read: its names are split when first asked for. */
interface ListingRow {
  readonly identity: string;
  readonly files: string;
  readonly subdirs: string;
}

/** Columns in SELECT order (raw rows: arrays are cheaper than objects for 10,000 rows). */
type Row = [path: string, agent: string, sessionId: string, offset: number, size: number, mtimeMs: number, state: string, stateHash: number];
const COLUMNS = 'path, agent, session_id, offset, size, mtime_ms, state, state_hash';

/**
 * CRC-32 of a core's text: catches a damaged or hand-edited row. Native: an FNV loop in
 * JavaScript over every core was a tenth of a warm start.
 */
const checksum = (text: string): number => crc32(text);

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
const openOrRebuild = (file: string, log?: Logger): Database.Database =>
  openOwnedDb({
    file,
    busyTimeoutMs: 2000,
    version: CACHE_SCHEMA_VERSION,
    create: (db) => db.exec(SCHEMA),
    check: checkLayout,
    wroteEarlier,
    // A fresh cache takes its first write (a cold start's thousands of rows) in rollback-journal
    // mode, straight into the file; `openDiscoveryCache` turns WAL on after it. In WAL mode the
    // rows went to the log first and were copied again when the connection closed (20 ms of a
    // one-shot cold start's 120 ms write).
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

const databaseOf = (agent: string, signature: string, listingText: string): CachedDatabase | undefined => {
  if (!isAgentKind(agent)) return undefined;
  const listing = parseJson(listingText) as { listedAt?: unknown; stamps?: unknown; diagnostics?: unknown } | undefined;
  if (typeof listing?.listedAt !== 'number' || !Array.isArray(listing.stamps)) return undefined;
  const stamps = new Map<string, string>();
  for (const pair of listing.stamps as unknown[]) {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') return undefined;
    stamps.set(pair[0], pair[1]);
  }
  if (listing.diagnostics === undefined) return { agent, signature, listedAt: listing.listedAt, stamps };
  if (!Array.isArray(listing.diagnostics)) return undefined;
  const diagnostics = new Map<string, DiagnosticCounts>();
  for (const entry of listing.diagnostics as unknown[]) {
    const counts = Array.isArray(entry) && typeof entry[0] === 'string' ? decodeDiagnosticCounts(entry[1]) : undefined;
    if (counts === undefined) return undefined;
    diagnostics.set((entry as [string])[0], counts);
  }
  return { agent, signature, listedAt: listing.listedAt, stamps, diagnostics };
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
  // Readers of another process share the cache in WAL mode from the first write on (see openOrRebuild).
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
  // Side files: every row at open (a few hundred short texts), each handed out once; what to
  // write waits for the next transaction (a cold start remembers one per kimi or grok session).
  const sides = new Map<string, { agent: string; record: CachedText }>();
  const pendingSides = new Map<string, { agent: AgentKind; record: CachedText | undefined }>();
  try {
    for (const [p, agent, size, mtimeMs, text] of db.prepare(`SELECT ${TABLE_COLUMNS.side_files} FROM side_files`).raw().iterate() as Iterable<[string, string, number, number, string]>) {
      sides.set(p, { agent, record: { size, mtimeMs, text } });
    }
  } catch (error) {
    log?.warn(`discovery cache read failed: ${(error as Error).message}`);
  }
  // Directory listings: every row at open (one per directory a walk visits), each asked for once
  // per walk; what to write waits for the next transaction, as for side files.
  const listings = new Map<string, ListingRow>();
  const askedListings = new Set<string>();
  const pendingListings = new Map<string, (ListingRow & { readonly path: string }) | undefined>();
  try {
    for (const [p, identity, files, subdirs] of db.prepare(`SELECT ${TABLE_COLUMNS.dirs} FROM dirs`).raw().iterate() as Iterable<[string, string, string, string]>) {
      listings.set(p, { identity, files, subdirs });
    }
  } catch (error) {
    log?.warn(`discovery cache read failed: ${(error as Error).message}`);
  }
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
  const upsertSide = db.prepare(
    `INSERT INTO side_files (${TABLE_COLUMNS.side_files}) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(path) DO UPDATE SET agent = excluded.agent, size = excluded.size, mtime_ms = excluded.mtime_ms, text = excluded.text`,
  );
  const removeSide = db.prepare('DELETE FROM side_files WHERE path = ?');
  const upsertListing = db.prepare(
    `INSERT INTO dirs (${TABLE_COLUMNS.dirs}) VALUES (?, ?, ?, ?)
     ON CONFLICT(path) DO UPDATE SET identity = excluded.identity, files = excluded.files, subdirs = excluded.subdirs`,
  );
  const removeListing = db.prepare('DELETE FROM dirs WHERE path = ?');
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
    for (const [p, { agent, record }] of pendingSides) {
      if (record === undefined) removeSide.run(p);
      else upsertSide.run(p, agent, record.size, record.mtimeMs, record.text);
    }
    pendingSides.clear();
    for (const [p, row] of pendingListings) {
      if (row === undefined) removeListing.run(p);
      else upsertListing.run(p, row.identity, row.files, row.subdirs);
    }
    pendingListings.clear();
  });
  const pendingWrites = (): boolean => pendingSides.size > 0 || pendingListings.size > 0;
  const selectDatabase = db.prepare('SELECT agent, signature, listing FROM databases WHERE path = ?').raw();
  const upsertDatabase = db.prepare(
    `INSERT INTO databases (path, agent, signature, listing) VALUES (?, ?, ?, ?)
     ON CONFLICT(path) DO UPDATE SET agent = excluded.agent, signature = excluded.signature, listing = excluded.listing`,
  );
  const removeDatabase = db.prepare('DELETE FROM databases WHERE path = ?');
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
      // A pass reads every row (~4x a lookup's time per row, measured): it pays from a quarter of them.
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
    sideText: (p) => {
      const found = sides.get(p);
      sides.delete(p);
      return found?.record;
    },
    rememberSideText: (p, agent, record) => {
      sides.delete(p);
      pendingSides.set(p, { agent, record });
    },
    forgetUnaskedSideTexts: (agent) => {
      // A side file remembered anew has left `sides` already (rememberSideText).
      for (const [p, side] of sides) {
        if (side.agent !== agent) continue;
        sides.delete(p);
        pendingSides.set(p, { agent, record: undefined });
      }
    },
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
    listing: (dir, identity) => {
      askedListings.add(dir);
      const found = listings.get(dir);
      if (found === undefined || found.identity !== identity) return undefined;
      return { files: splitNames(found.files), dirs: splitNames(found.subdirs) };
    },
    rememberListing: (dir, identity, listing) => {
      askedListings.add(dir);
      if (listing === undefined) {
        if (listings.delete(dir)) pendingListings.set(dir, undefined);
        return;
      }
      const row = { path: dir, identity, files: joinNames(listing.files), subdirs: joinNames(listing.dirs) };
      listings.set(dir, row);
      pendingListings.set(dir, row);
    },
    forgetUnaskedListings: (root) => {
      const prefix = root.endsWith(path.sep) ? root : root + path.sep;
      for (const p of listings.keys()) {
        if (askedListings.has(p) || (p !== root && !p.startsWith(prefix))) continue;
        listings.delete(p);
        pendingListings.set(p, undefined);
      }
    },
    getDatabase: (dbPath) => {
      try {
        const row = selectDatabase.get(dbPath) as [string, string, string] | undefined;
        return row === undefined ? undefined : databaseOf(...row);
      } catch (error) {
        failed('read', error);
        return undefined;
      }
    },
    putDatabase: (dbPath, record) => {
      try {
        if (record === undefined) removeDatabase.run(dbPath);
        else upsertDatabase.run(dbPath, record.agent, record.signature, JSON.stringify({ listedAt: record.listedAt, stamps: [...record.stamps], diagnostics: record.diagnostics && [...record.diagnostics].map(([id, counts]) => [id, encodeDiagnostics(counts) ?? []]) }));
      } catch (error) {
        failed('write', error);
      }
    },
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
