import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { Database, Statement } from 'better-sqlite3';
import type { AgentKind } from '../../core/agents.js';
import type { DiagnosticCounts, SessionEvent } from '../../core/session.js';
import type { DiscoveryCache } from '../internal/cache.js';
import { diffStamps, newestFirst } from './diff.js';
import { boundPageCache } from '../../util/sqlite-memory.js';
import { classifyDbError, DbCorruptError, failureEvent } from './errors.js';
import type { DbReader, OpenReader } from './reader.js';
import { createRestoredCounts } from './restored-counts.js';
import { databaseSignature, sessionCacheKey, stampHash } from './signature.js';
import { restoredDiagnostics, withDiagnosticsOf } from '../internal/kept-diagnostics.js';

export interface PollerOptions {
  readonly agent: AgentKind;
  /** The agent's name in diagnostics (its descriptor's label). */
  readonly label: string;
  readonly dbPath: string;
  readonly openReader: OpenReader;
  /**
   * How long one statement may wait for a writer's lock. better-sqlite3 is synchronous, so this
   * blocks the event loop: keep it short and let the next poll retry instead.
   */
  readonly busyTimeoutMs?: number;
  /**
   * Re-list even without a commit once the last listing is this old, for readers whose listing
   * depends on `now` (cursor's 48 h bound drops composers that aged out).
   */
  readonly relistAfterMs?: number;
  /**
   * Replays stop once a poll has produced this many events; the rest follow in the next polls,
   * run without delay (see `hasMore`), so a large history never blocks the event loop for long.
   */
  readonly maxEventsPerPoll?: number;
  /**
   * The discovery cache: a database whose files are unchanged since the last complete read is
   * restored from it without a query (a warm start opens no database), and each complete read is
   * recorded in it (file signature and session stamps here; the sessions' states through their
   * checkpoints and `persistCache`).
   */
  readonly cache?: DiscoveryCache;
  /**
   * A one-shot listing of a window (SourceCtx.readSince): sessions whose listed activity
   * (`SessionListing.activeAt`) is older are not replayed, and the read is not recorded as
   * complete (their cache rows stay).
   */
  readonly readSince?: number;
}

/** One step per call; the shell around it (poll-source.ts) owns the timer. */
export interface SqlitePoller {
  /**
   * Check for changes and return the events they imply; the poll that completes the first pass
   * (or fails) ends with `ready`.
   */
  readonly poll: (now: number) => readonly SessionEvent[];
  /** The last poll stopped at `maxEventsPerPoll`: poll again right away. */
  readonly hasMore: () => boolean;
  readonly close: () => void;
  readonly isOpen: () => boolean;
}

interface Connection {
  readonly db: Database;
  readonly reader: DbReader;
  /** Prepared once: `db.pragma()` would re-prepare it on every poll. */
  readonly dataVersionQuery: Statement<[], number>;
  readonly schemaVersionQuery: Statement<[], number>;
  /** `PRAGMA schema_version` when the reader probed the schema: a migration since means probing again. */
  readonly schemaVersion: number;
  /** `PRAGMA page_size`: the file is a whole number of these. */
  readonly pageSize: number;
  readonly dev: number;
  readonly ino: number;
  /** `PRAGMA data_version` after the last complete read; undefined until one succeeded. */
  dataVersion: number | undefined;
  /** `now` of the last complete read. */
  listedAt: number;
}

const MAX_REMEMBERED_DIAGNOSTICS = 10_000;

/**
 * Where `restoredCounts` keeps what the last listing could not use (a Cursor composer that is not
 * JSON), beside the sessions' own: no session id is empty.
 */
const LISTING = '';

/** Diagnostic counts per the session id each names ('' for none), or undefined for none. */
const countsBySession = (events: readonly SessionEvent[]): ReadonlyMap<string, DiagnosticCounts> | undefined => {
  const bySession = new Map<string, SessionEvent[]>();
  for (const event of events) {
    if (event.type !== 'diagnostic') continue;
    const id = event.sessionId ?? '';
    bySession.set(id, [...(bySession.get(id) ?? []), event]);
  }
  if (bySession.size === 0) return undefined;
  const counts = new Map<string, DiagnosticCounts>();
  for (const [id, list] of bySession) counts.set(id, withDiagnosticsOf(list) ?? {});
  return counts;
};

const require = createRequire(import.meta.url);
/**
 * The native driver is loaded when a database first exists: users without a SQLite agent
 * never pay for it, and a driver that fails to load is a diagnostic of these agents, not a crash.
 */
const loadDriver = (): typeof BetterSqlite3 => require('better-sqlite3') as typeof BetterSqlite3;
/** A replay budget per poll, so a large first pass is delivered in batches (bench/sqlite-poll.mjs measures it). */
const DEFAULT_MAX_EVENTS_PER_POLL = 5_000;

/**
 * The imperative shell of a SQLite source: keeps one read-only connection open, asks SQLite
 * whether anything was committed since the last read (`PRAGMA data_version`, a shared-memory read
 * in WAL mode) and only then lists sessions and replays the changed ones as `reset` + events.
 * Any failure closes the connection (so a replaced or repaired file is reopened), is reported
 * once while it persists, and is retried on the next poll.
 */
export const createSqlitePoller = (options: PollerOptions): SqlitePoller => {
  const { agent, dbPath } = options;
  let connection: Connection | undefined;
  let stamps: ReadonlyMap<string, string> = new Map();
  let readySent = false;
  let more = false;
  const budget = options.maxEventsPerPoll ?? DEFAULT_MAX_EVENTS_PER_POLL;
  let lastFailure = '';
  const reported = new Set<string>();
  const { cache } = options;
  let triedRestore = false;
  // Set by a restore: the first connection checks the files still match before trusting the stamps.
  let restored: { readonly signature: string; readonly listedAt: number } | undefined;
  let pruned = false;
  /** The last read left sessions older than `readSince` unread: it is no complete read to record. */
  let windowed = false;
  /** What the last listing found it could not use, per session id ('' for none) (the database's record keeps it). */
  let listingCounts: ReadonlyMap<string, DiagnosticCounts> | undefined;
  /** The diagnostic counts restored with the sessions (restored-counts.ts). */
  const restoredCounts = createRestoredCounts();

  const close = (): void => {
    connection?.db.close();
    connection = undefined;
  };

  const open = (dev: number, ino: number): Connection => {
    const Driver = loadDriver();
    const db = new Driver(dbPath, { readonly: true, fileMustExist: true, timeout: options.busyTimeoutMs ?? 50 });
    try {
      boundPageCache(db);
      const dataVersionQuery = db.prepare<[], number>('PRAGMA data_version').pluck();
      const schemaVersionQuery = db.prepare<[], number>('PRAGMA schema_version').pluck();
      const schemaVersion = schemaVersionQuery.get() as number;
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      return { db, reader: options.openReader(db, dbPath), dataVersionQuery, schemaVersionQuery, schemaVersion, pageSize, dev, ino, dataVersion: undefined, listedAt: 0 };
    } catch (error) {
      db.close();
      throw error;
    }
  };

  /** Record diagnostics are reported once per distinct record, not on every replay of a session. */
  const isNewDiagnostic = (event: SessionEvent): boolean => {
    if (event.type !== 'diagnostic') return true;
    const key = `${event.code}|${event.sessionId ?? ''}|${event.message}`;
    if (reported.has(key)) return false;
    if (reported.size >= MAX_REMEMBERED_DIAGNOSTICS) reported.clear();
    reported.add(key);
    return true;
  };

  const dropAll = (out: SessionEvent[]): void => {
    for (const sessionId of stamps.keys()) out.push({ type: 'removed', agent, sessionId });
    stamps = new Map();
    restoredCounts.clear();
    listingCounts = undefined;
    restored = undefined;
    cache?.putDatabase(dbPath, undefined);
  };

  /**
   * Warm start: when the cache holds the record of a complete read and every session's persisted
   * state is at its recorded stamp, the sessions come back as `restore` events and the recorded
   * stamps become the poller's own. Returns whether the database's files are still exactly as
   * recorded (then nothing needs reading: no connection is opened); otherwise the next step lists
   * the database and replays only the sessions whose stamp changed. Any inconsistency restores
   * nothing and the first read is a full one.
   */
  const restore = (now: number, out: SessionEvent[]): 'unchanged' | 'changed' | 'none' => {
    const record = cache?.getDatabase(dbPath);
    if (!cache || !record || record.agent !== agent) return 'none';
    const restores: SessionEvent[] = [];
    const diagnostics = new Map<string, SessionEvent[]>();
    for (const [sessionId, stamp] of record.stamps) {
      const entry = cache.get(sessionCacheKey(dbPath, sessionId));
      if (!entry || entry.agent !== agent || entry.sessionId !== sessionId || entry.state.checkpoint?.ino !== stampHash(stamp)) return 'none';
      restores.push({ type: 'restore', agent, sessionId, state: entry.state });
      diagnostics.set(sessionId, restoredDiagnostics(agent, entry.state.checkpoint?.diagnostics, { sessionId, path: dbPath }));
    }
    for (const event of restores) out.push(event);
    stamps = record.stamps;
    listingCounts = record.diagnostics;
    const listed: SessionEvent[] = [];
    for (const [sessionId, counts] of record.diagnostics ?? []) listed.push(...restoredDiagnostics(agent, counts, sessionId === '' ? { path: dbPath } : { sessionId, path: dbPath }));
    diagnostics.set(LISTING, listed);
    for (const [sessionId, events] of diagnostics) restoredCounts.hold(sessionId, events);
    const signature = databaseSignature(dbPath);
    const relistDue = options.relistAfterMs !== undefined && now - record.listedAt >= options.relistAfterMs;
    if (signature === undefined || signature !== record.signature || relistDue) return 'changed';
    restoredCounts.release(out);
    restored = { signature, listedAt: record.listedAt };
    return 'unchanged';
  };

  /** After a complete read: what a later warm start compares against, and rows of sessions gone meanwhile. */
  const record = (signature: string | undefined, now: number): void => {
    if (!cache) return;
    if (signature !== undefined) cache.putDatabase(dbPath, { agent, signature, listedAt: now, stamps, ...(listingCounts === undefined ? {} : { diagnostics: listingCounts }) });
    if (pruned) return;
    pruned = true;
    const prefix = sessionCacheKey(dbPath, '');
    cache.prune(agent, (key) => !key.startsWith(prefix) || stamps.has(key.slice(prefix.length)));
  };

  /** Returns false when the budget ran out before every changed session was replayed. */
  const read = (conn: Connection, now: number, out: SessionEvent[]): boolean =>
    // NOTE: one read transaction, so the listing and the replays see the same snapshot.
    conn.db.transaction(() => {
      const listing = conn.reader.list(now);
      listingCounts = countsBySession(listing.diagnostics);
      // A listing restored from the cache was counted: the same records found again are not new.
      const listedBefore = restoredCounts.replayed(LISTING);
      for (const event of listing.diagnostics) if (isNewDiagnostic(event) && !listedBefore(event)) out.push(event);
      const { changed, removed } = diffStamps(stamps, listing.stamps);
      const next = new Map(stamps);
      for (const sessionId of removed) {
        next.delete(sessionId);
        restoredCounts.removed(sessionId);
        out.push({ type: 'removed', agent, sessionId });
      }
      let complete = true;
      const { readSince } = options;
      // Newest first: a first pass delivered over several polls hands the recent sessions over first.
      for (const sessionId of newestFirst(changed, listing.activeAt)) {
        if (readSince !== undefined && (listing.activeAt?.get(sessionId) ?? readSince) < readSince) {
          windowed = true;
          continue;
        }
        if (out.length >= budget) {
          complete = false;
          break;
        }
        const events = conn.reader.load(sessionId);
        const countedBefore = restoredCounts.replayed(sessionId);
        const stamp = listing.stamps.get(sessionId) ?? '';
        out.push({ type: 'reset', agent, sessionId });
        for (const event of events) if (isNewDiagnostic(event) && !countedBefore(event)) out.push(event);
        // The state is now exactly "this session at this stamp": the cache may persist it, with
        // the diagnostics of its records (a warm start that restores it counts them again).
        if (cache) {
          const diagnostics = withDiagnosticsOf(events);
          const checkpoint = { path: sessionCacheKey(dbPath, sessionId), offset: 0, size: 0, mtimeMs: 0, ino: stampHash(stamp) };
          out.push({ type: 'checkpoint', agent, sessionId, checkpoint: diagnostics ? { ...checkpoint, diagnostics } : checkpoint });
        }
        next.set(sessionId, stamp);
      }
      stamps = next;
      return complete;
    })();

  const step = (now: number, out: SessionEvent[]): void => {
    const stat = statSync(dbPath, { throwIfNoEntry: false });
    if (!stat) {
      // Not created yet (or deleted): not an error; keep checking with one stat per poll.
      close();
      dropAll(out);
      return;
    }
    if (connection && (connection.dev !== stat.dev || connection.ino !== stat.ino)) close();
    connection ??= open(stat.dev, stat.ino);
    // A database file is whole pages. SQLite reads a page cut short as if its missing end were
    // zeros, without an error: the rows stored there would vanish in silence.
    if (stat.size % connection.pageSize !== 0) throw new DbCorruptError(`the file is ${stat.size} bytes, not a whole number of ${connection.pageSize}-byte pages: cut short?`);
    let version = connection.dataVersionQuery.get();
    // The agent migrated its schema while we watched (OpenCode 1.x -> 2.x adds the tables new
    // sessions go to): a reader prepared against the old schema would never see them. Probe again.
    if (version !== connection.dataVersion && connection.schemaVersionQuery.get() !== connection.schemaVersion) {
      close();
      connection = open(stat.dev, stat.ino);
      version = connection.dataVersionQuery.get();
    }
    if (restored && connection.dataVersion === undefined) {
      // First connection after a restore: nothing committed since the recorded read -> nothing to read.
      const unchanged = databaseSignature(dbPath) === restored.signature;
      const { listedAt } = restored;
      restored = undefined;
      if (unchanged) {
        connection.dataVersion = version;
        connection.listedAt = listedAt;
      }
    }
    const relist = options.relistAfterMs !== undefined && now - connection.listedAt >= options.relistAfterMs;
    if (version === connection.dataVersion && !relist) return;
    // Taken before the read: a commit landing during it makes the next warm start read again.
    const signature = cache ? databaseSignature(dbPath) : undefined;
    more = !read(connection, now, out);
    // An unfinished pass keeps the old version, so the next poll lists again and carries on.
    if (more) return;
    restoredCounts.release(out);
    connection.dataVersion = version;
    connection.listedAt = now;
    if (!windowed) record(signature, now);
  };

  /**
   * A statement prepared against the schema the connection was opened with fails once the agent
   * migrates (a column dropped or renamed): probe the new schema on a fresh connection at once,
   * and report only what still fails.
   */
  const stepOrReprobe = (now: number, out: SessionEvent[]): void => {
    const wasOpen = connection !== undefined;
    try {
      step(now, out);
    } catch (error) {
      close();
      if (!wasOpen || classifyDbError(options.label, dbPath, error).code !== 'E_DB_SCHEMA') throw error;
      step(now, out);
    }
  };

  const poll = (now: number): readonly SessionEvent[] => {
    const out: SessionEvent[] = [];
    more = false;
    if (!triedRestore) {
      triedRestore = true;
      let outcome: ReturnType<typeof restore> = 'none';
      try {
        outcome = restore(now, out);
      } catch {
        // An unreadable cache row or a vanished file: read the database as if there were no cache.
        out.length = 0;
        stamps = new Map();
        restoredCounts.clear();
      }
      if (outcome === 'unchanged') {
        if (!readySent) {
          readySent = true;
          out.push({ type: 'ready', agent });
        }
        return out;
      }
    }
    try {
      stepOrReprobe(now, out);
      lastFailure = '';
    } catch (error) {
      close();
      more = false;
      const failure = classifyDbError(options.label, dbPath, error);
      const key = `${failure.code}|${failure.message}`;
      if (key !== lastFailure) out.push(failureEvent(agent, dbPath, failure));
      lastFailure = key;
      // The restored sessions stay, as read before: so do their counts.
      restoredCounts.release(out);
    }
    if (!readySent && !more) {
      readySent = true;
      out.push({ type: 'ready', agent });
    }
    return out;
  };

  return { poll, hasMore: () => more, close, isOpen: () => connection !== undefined };
};
