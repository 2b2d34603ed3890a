import { existsSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { cacheDir, type Env } from '../../config/paths.js';
import { openOwnedDb } from '../../util/owned-db.js';
import type { Activity } from '../../core/activity.js';
import type { SessionKey } from '../../core/session.js';
import type { DeliveryRecord, DeliveryState } from '../../core/wire.js';

/** True while process `pid` runs (on this machine, where the queue file is). */
const isAlive = (pid: number): boolean => {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The shortest prefix of a delivery id (a UUID) that `find` matches: shorter ones match too much to name one. */
export const MIN_ID_PREFIX = 8;

/**
 * The durable delivery queue and log: `$XDG_CACHE_HOME/agentwatch/webhooks.db` (0600), beside
 * the discovery cache. Every delivery is a row from the moment its transition is accepted until
 * it ages out of the log, so neither an outage nor a restart loses it. Bounded per webhook:
 * at most `maxQueued` waiting and none older than `maxAgeMs`; the oldest are dropped first and
 * counted (state `dropped`, with the reason). All calls are synchronous (better-sqlite3).
 */

const DEFAULT_MAX_QUEUED = 10_000;
const DEFAULT_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Finished deliveries kept per webhook for `webhooks log` and the API. */
const DEFAULT_HISTORY = 1_000;

export type { DeliveryRecord,  };

export interface QueuedDelivery {
  readonly seq: number;
  readonly id: string;
  readonly webhook: string;
  /** `agent:session_id` of its transition ('' for a test delivery): one at a time per session. */
  readonly session: string;
  readonly body: string;
  readonly attempts: number;
  readonly createdAt: number;
}

/** A row as it is moved between a file and memory (delivery fallback-store.ts). */
interface StoredDelivery {
  readonly id: string;
  readonly webhook: string;
  readonly body: string;
  readonly state: DeliveryState;
  readonly attempts: number;
  readonly status: number | null;
  readonly error: string | null;
  readonly latencyMs: number | null;
  readonly createdAt: number;
  readonly lastAttemptAt: number | null;
  readonly owner: string;
  readonly session: string;
}

interface AttemptResult {
  readonly at: number;
  readonly status: number | null;
  readonly error: string | null;
  readonly latencyMs: number;
}

export interface DeliveryStore {
  /** Where the queue lives (`:memory:` when the file could not be used). */
  readonly file: string;
  /** Queue one delivery; returns how many of this webhook's oldest were dropped to make room. */
  readonly enqueue: (delivery: { id: string; webhook: string; body: string; createdAt: number; session?: string }) => number;
  /** The oldest waiting deliveries of `webhook`, in order, skipping `exclude` (in flight). */
  readonly nextQueued: (webhook: string, limit: number, exclude: ReadonlySet<string>) => QueuedDelivery[];
  readonly markDelivered: (id: string, result: AttemptResult) => void;
  readonly markRefused: (id: string, result: AttemptResult) => void;
  /** Given up: it kept failing while the receiver accepted other deliveries. */
  readonly markFailed: (id: string, result: AttemptResult) => void;
  /** A failed attempt worth retrying: counted, and the delivery stays queued. */
  readonly recordRetry: (id: string, result: AttemptResult) => void;
  /** Drops deliveries queued longer than the age bound (the sink calls it every few seconds); returns how many per webhook. */
  readonly expire: (now: number) => Map<string, number>;
  /** Waiting deliveries per webhook: this run's (default), or every run's (`'all'`, for the log). */
  readonly queuedCounts: (scope?: 'mine' | 'all') => Map<string, number>;
  /** Deliveries of `webhook` waiting (kept in memory: cheap enough to call per delivery). */
  readonly queued: (webhook: string) => number;
  readonly recent: (query: { webhook?: string | undefined; limit: number }) => DeliveryRecord[];
  /** A delivery by id, or by a unique prefix of at least `MIN_ID_PREFIX` characters. */
  readonly find: (idOrPrefix: string) => DeliveryRecord | undefined | 'ambiguous';
  /** Puts a finished delivery back in the queue (replay), attempts kept, for any run to adopt. */
  readonly requeue: (id: string) => boolean;
  /**
   * Says this run is alive (at `now`) and adopts the waiting deliveries of runs that stopped or
   * went silent for `RUN_STALE_MS`, and unowned ones (replays); returns how many per webhook.
   */
  readonly claim: (now: number) => Map<string, number>;
  /** This run stops: its waiting deliveries are left for the next run to adopt at once. */
  readonly release: () => void;
  /** This run's waiting rows (`queued`), or every row (`all`), oldest first. */
  readonly exportRows: (scope: 'queued' | 'all') => StoredDelivery[];
  /** Writes `rows` in one transaction: a known id is updated, a new one appended (in order). */
  readonly absorb: (rows: readonly StoredDelivery[]) => void;
  /** Records the state receivers were last told a session is in (`agent:session_id`). */
  readonly recordState: (session: string, activity: Activity, at: number) => void;
  /** `recordState` for many, in one transaction. */
  readonly recordStates: (states: ReadonlyMap<string, Activity>, at: number) => void;
  /** Every session's state as receivers were last told it, by any run. */
  readonly lastStates: () => Map<SessionKey, Activity>;
  /** How many adopted deliveries per webhook `claim` dropped as superseded since the last call. */
  readonly takeSuperseded: () => Map<string, number>;
  readonly close: () => void;
}

export interface StoreOptions {
  readonly maxQueued?: number;
  readonly maxAgeMs?: number;
  readonly history?: number;
  readonly readonly?: boolean;
  /**
   * The id of the sink run using this store: its deliveries are its own, so two agentwatch
   * processes sharing the file never send each other's (see `claim`). Without one, the store
   * works on unowned deliveries (one-shot commands, tests).
   */
  readonly owner?: string;
}

/** A run that has not said it is alive for this long has stopped: its deliveries are adopted. */
const RUN_STALE_MS = 60_000;

export const webhookQueuePath = (env: Env): string => path.join(cacheDir(env), 'webhooks.db');

const SCHEMA_VERSION = 3;
/** Version 1 had no owners: every waiting delivery becomes unowned, for the next run to adopt. */
const MIGRATE_FROM_1 = `
ALTER TABLE deliveries ADD COLUMN owner TEXT NOT NULL DEFAULT '';`;
/** Version 2 had no session per delivery (read back from the bodies) and no last states. */
const MIGRATE_FROM_2 = `
ALTER TABLE deliveries ADD COLUMN session TEXT NOT NULL DEFAULT '';
UPDATE deliveries SET session = coalesce(json_extract(body, '$.agent') || ':' || json_extract(body, '$.session_id'), '') WHERE json_valid(body);`;
const SCHEMA = `
CREATE TABLE IF NOT EXISTS deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  webhook TEXT NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  status INTEGER,
  error TEXT,
  latency_ms INTEGER,
  created_at INTEGER NOT NULL,
  last_attempt_at INTEGER,
  owner TEXT NOT NULL DEFAULT '',
  session TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS last_states (
  session TEXT PRIMARY KEY,
  activity TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY,
  pid INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL
);
DROP INDEX IF EXISTS deliveries_queue;
CREATE INDEX IF NOT EXISTS deliveries_owned ON deliveries (webhook, state, owner, seq);
CREATE INDEX IF NOT EXISTS deliveries_age ON deliveries (state, created_at);
CREATE INDEX IF NOT EXISTS deliveries_session ON deliveries (webhook, session, seq);
PRAGMA user_version = ${SCHEMA_VERSION};`;
const COLUMNS = {
  deliveries: 'seq, id, webhook, body, state, attempts, status, error, latency_ms, created_at, last_attempt_at, owner, session',
  runs: 'id, pid, heartbeat_at',
  last_states: 'session, activity, at',
} as const;

interface Row {
  readonly seq: number;
  readonly id: string;
  readonly webhook: string;
  readonly body: string;
  readonly state: DeliveryState;
  readonly attempts: number;
  readonly status: number | null;
  readonly error: string | null;
  readonly latency_ms: number | null;
  readonly created_at: number;
  readonly last_attempt_at: number | null;
  readonly session: string;
}

const ageText = (ms: number): string =>
  ms >= 3_600_000 ? `${Math.round(ms / 3_600_000)} h` : ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`;

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

const toRecord = (row: Row): DeliveryRecord => ({
  id: row.id,
  webhook: row.webhook,
  state: row.state,
  attempts: row.attempts,
  status: row.status,
  error: row.error,
  latency_ms: row.latency_ms,
  created_at: new Date(row.created_at).toISOString(),
  last_attempt_at: iso(row.last_attempt_at),
  body: row.body,
});

/**
 * Runs the schema in one transaction, after `before` (a migration), on a file without a version or
 * at this one. Then reads every column the store uses: a damaged table fails here, where the file
 * can still be moved aside, not at its first use.
 */
const ensureSchema =
  (before = ''): ((db: Database.Database) => void) =>
  (db) => {
    db.transaction(() => {
      if (before !== '') db.exec(before);
      db.exec(SCHEMA);
    })();
    db.prepare(`SELECT ${COLUMNS.deliveries} FROM deliveries LIMIT 0`).all();
    db.prepare(`SELECT ${COLUMNS.runs} FROM runs LIMIT 0`).all();
    db.prepare(`SELECT ${COLUMNS.last_states} FROM last_states LIMIT 0`).all();
  };

/**
 * Opens (or creates, or migrates) the queue file; throws when it cannot be used. A file that
 * cannot be used is moved aside (never deleted: it may hold deliveries) and a new one started:
 * `onMovedAside` is told where it went.
 */
const openDatabase = (file: string, readonly: boolean, onMovedAside?: (error: Error, aside: string | undefined) => void): Database.Database =>
  openOwnedDb({
    file,
    busyTimeoutMs: 2000,
    readonly,
    version: SCHEMA_VERSION,
    // A file without a version gets the tables (IF NOT EXISTS), whatever else it holds.
    isNew: (_, version) => version === 0,
    create: ensureSchema(),
    check: ensureSchema(),
    migrate: { 1: ensureSchema(`${MIGRATE_FROM_1}${MIGRATE_FROM_2}`), 2: ensureSchema(MIGRATE_FROM_2) },
    // WAL + NORMAL: a commit is not fsynced (no disk flush per transition on the pipeline's
    // path); it survives the process crashing or being killed, not the machine losing power.
    wal: 'always',
    privateDir: 'no',
    privateFile: 'must',
    unusable: onMovedAside ? { aside: (path) => `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}` } : 'keep',
    ...(onMovedAside ? { onRefused: onMovedAside } : {}),
  }).db;

/**
 * The store in `file` (`:memory:` for one of this run only). With `onMovedAside`, a file that cannot
 * be used is moved aside and a new one started; without, opening it throws.
 */
export const openDeliveryStore = (file: string, options: StoreOptions = {}, onMovedAside?: (error: Error, aside: string | undefined) => void): DeliveryStore => {
  const maxQueued = options.maxQueued ?? DEFAULT_MAX_QUEUED;
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  const history = options.history ?? DEFAULT_HISTORY;
  const db = openDatabase(file, options.readonly ?? false, onMovedAside);
  const writable = !(options.readonly ?? false);

  const statements = writable
    ? {
        insert: db.prepare(`INSERT OR IGNORE INTO deliveries (id, webhook, body, state, created_at, owner, session) VALUES (?, ?, ?, 'queued', ?, ?, ?)`),
        countQueued: db.prepare(`SELECT COUNT(*) AS n FROM deliveries WHERE webhook = ? AND state = 'queued' AND owner = ?`),
        dropOldest: db.prepare(
          `UPDATE deliveries SET state = 'dropped', error = ? WHERE seq IN (SELECT seq FROM deliveries WHERE webhook = ? AND state = 'queued' AND owner = ? ORDER BY seq LIMIT ?)`,
        ),
        expired: db.prepare(`SELECT webhook, COUNT(*) AS n FROM deliveries WHERE state = 'queued' AND created_at <= ? AND owner = ? GROUP BY webhook`),
        expire: db.prepare(`UPDATE deliveries SET state = 'dropped', error = ? WHERE state = 'queued' AND created_at <= ? AND owner = ?`),
        next: db.prepare(
          `SELECT seq, id, webhook, session, body, attempts, created_at FROM deliveries WHERE webhook = ? AND state = 'queued' AND owner = ? ORDER BY seq LIMIT ?`,
        ),
        finish: db.prepare(`UPDATE deliveries SET state = ?, attempts = attempts + 1, status = ?, error = ?, latency_ms = ?, last_attempt_at = ? WHERE id = ?`),
        finishQueued: db.prepare(
          `UPDATE deliveries SET state = ?, attempts = attempts + 1, status = ?, error = ?, latency_ms = ?, last_attempt_at = ? WHERE id = ? AND state = 'queued'`,
        ),
        retry: db.prepare(`UPDATE deliveries SET attempts = attempts + 1, status = ?, error = ?, latency_ms = ?, last_attempt_at = ? WHERE id = ? AND state = 'queued'`),
        trim: db.prepare(
          `DELETE FROM deliveries WHERE webhook = ? AND state != 'queued' AND seq <= (SELECT seq FROM deliveries WHERE webhook = ? AND state != 'queued' ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
        ),
        requeue: db.prepare(`UPDATE deliveries SET state = 'queued', error = NULL, owner = '' WHERE id = ? AND state != 'queued'`),
        heartbeat: db.prepare(`INSERT INTO runs (id, pid, heartbeat_at) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at`),
        forgetStale: db.prepare(`DELETE FROM runs WHERE heartbeat_at < ? AND id != ?`),
        adoptable: db.prepare(
          `SELECT webhook, COUNT(*) AS n FROM deliveries WHERE state = 'queued' AND owner != ? AND (owner = '' OR owner NOT IN (SELECT id FROM runs)) GROUP BY webhook`,
        ),
        adopt: db.prepare(`UPDATE deliveries SET owner = ? WHERE state = 'queued' AND owner != ? AND (owner = '' OR owner NOT IN (SELECT id FROM runs))`),
        forget: db.prepare(`DELETE FROM runs WHERE id = ?`),
        others: db.prepare(`SELECT id, pid FROM runs WHERE id != ?`),
        // Left queued by a run killed before it sent them, while a newer one of the same session
        // went out: sending them now would put the receiver back on an older state.
        supersededCounts: db.prepare(
          `SELECT webhook, COUNT(*) AS n FROM deliveries AS d WHERE state = 'queued' AND owner = ? AND session != '' AND EXISTS (SELECT 1 FROM deliveries AS n WHERE n.webhook = d.webhook AND n.session = d.session AND n.seq > d.seq AND n.state = 'delivered') GROUP BY webhook`,
        ),
        supersede: db.prepare(
          `UPDATE deliveries AS d SET state = 'dropped', error = 'superseded: a newer state of the session was delivered' WHERE state = 'queued' AND owner = ? AND session != '' AND EXISTS (SELECT 1 FROM deliveries AS n WHERE n.webhook = d.webhook AND n.session = d.session AND n.seq > d.seq AND n.state = 'delivered')`,
        ),
        recordState: db.prepare(`INSERT INTO last_states (session, activity, at) VALUES (?, ?, ?) ON CONFLICT (session) DO UPDATE SET activity = excluded.activity, at = excluded.at`),
        lastStates: db.prepare(`SELECT session, activity FROM last_states`),
        upsert: db.prepare(
          `INSERT INTO deliveries (id, webhook, body, state, attempts, status, error, latency_ms, created_at, last_attempt_at, owner, session) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET state = excluded.state, attempts = excluded.attempts, status = excluded.status, error = excluded.error,
           latency_ms = excluded.latency_ms, last_attempt_at = excluded.last_attempt_at, owner = excluded.owner`,
        ),
        exportQueued: db.prepare(`SELECT * FROM deliveries WHERE state = 'queued' AND owner = ? ORDER BY seq`),
        exportAll: db.prepare(`SELECT * FROM deliveries ORDER BY seq`),
      }
    : undefined;
  const owner = options.owner ?? '';
  // NOTE: prepared on first use: a read-only open of a version-1 file (no owner column, not
  // migrated until a sink opens it) can still list its deliveries.
  let queuedCounts: Database.Statement | undefined;
  let queuedCountsAll: Database.Statement | undefined;
  const recentAll = db.prepare(`SELECT * FROM deliveries ORDER BY seq DESC LIMIT ?`);
  const recentOne = db.prepare(`SELECT * FROM deliveries WHERE webhook = ? ORDER BY seq DESC LIMIT ?`);
  const byPrefix = db.prepare(`SELECT * FROM deliveries WHERE id >= ? AND id < ? ORDER BY seq LIMIT 2`);

  // Waiting deliveries per webhook, counted here rather than by COUNT(*) on every insert (which
  // made accepting a transition cost O(queue length)). Loaded per webhook on first use.
  const queued = new Map<string, number>();
  const superseded = new Map<string, number>();
  const queuedOf = (webhook: string): number => {
    let count = queued.get(webhook);
    if (count === undefined) {
      count = (write().countQueued.get(webhook, owner) as { n: number }).n;
      queued.set(webhook, count);
    }
    return count;
  };
  const adjust = (webhook: string, delta: number): void => {
    queued.set(webhook, Math.max(0, queuedOf(webhook) + delta));
  };

  const write = (): NonNullable<typeof statements> => {
    if (!statements) throw new Error(`${file} is open read-only`);
    return statements;
  };

  const expire = (now: number): Map<string, number> => {
    const s = write();
    const cutoff = now - maxAgeMs;
    const counts = new Map((s.expired.all(cutoff, owner) as { webhook: string; n: number }[]).map((row) => [row.webhook, row.n]));
    if (counts.size > 0) s.expire.run(`queued longer than ${ageText(maxAgeMs)}`, cutoff, owner);
    for (const [webhook, n] of counts) adjust(webhook, -n);
    return counts;
  };

  const finish = (state: DeliveryState, id: string, result: AttemptResult, webhook?: string): void => {
    const s = write();
    const args = [state, result.status, result.error, Math.round(result.latencyMs), result.at, id] as const;
    if (s.finishQueued.run(...args).changes > 0) {
      if (webhook) adjust(webhook, -1);
    } else {
      // Dropped (or replayed) while in flight: record the answer all the same.
      s.finish.run(...args);
    }
    if (webhook) s.trim.run(webhook, webhook, history);
  };

  const webhookOf = (id: string): string | undefined =>
    (db.prepare('SELECT webhook FROM deliveries WHERE id = ?').get(id) as { webhook: string } | undefined)?.webhook;

  return {
    file,
    enqueue: (delivery) => {
      const s = write();
      return db.transaction(() => {
        const over = Math.max(0, queuedOf(delivery.webhook) + 1 - maxQueued);
        if (over > 0) adjust(delivery.webhook, -s.dropOldest.run(`queue full (${maxQueued} waiting)`, delivery.webhook, owner, over).changes);
        if (s.insert.run(delivery.id, delivery.webhook, delivery.body, delivery.createdAt, owner, delivery.session ?? '').changes > 0) adjust(delivery.webhook, 1);
        return over;
      })();
    },
    nextQueued: (webhook, limit, exclude) => {
      const rows = write().next.all(webhook, owner, limit + exclude.size) as (Omit<QueuedDelivery, 'createdAt'> & { created_at: number })[];
      return rows
        .filter((row) => !exclude.has(row.id))
        .slice(0, limit)
        .map((row) => ({ seq: row.seq, id: row.id, webhook: row.webhook, session: row.session, body: row.body, attempts: row.attempts, createdAt: row.created_at }));
    },
    markDelivered: (id, result) => finish('delivered', id, result, webhookOf(id)),
    markRefused: (id, result) => finish('refused', id, result, webhookOf(id)),
    markFailed: (id, result) => finish('failed', id, result, webhookOf(id)),
    recordRetry: (id, result) => {
      write().retry.run(result.status, result.error, Math.round(result.latencyMs), result.at, id);
    },
    expire,
    queued: queuedOf,
    queuedCounts: (scope = 'mine') => {
      const rows =
        scope === 'all'
          ? (queuedCountsAll ??= db.prepare(`SELECT webhook, COUNT(*) AS n FROM deliveries WHERE state = 'queued' GROUP BY webhook`)).all()
          : (queuedCounts ??= db.prepare(`SELECT webhook, COUNT(*) AS n FROM deliveries WHERE state = 'queued' AND owner = ? GROUP BY webhook`)).all(owner);
      return new Map((rows as { webhook: string; n: number }[]).map((row) => [row.webhook, row.n]));
    },
    recent: ({ webhook, limit }) =>
      ((webhook === undefined ? recentAll.all(limit) : recentOne.all(webhook, limit)) as Row[]).map(toRecord),
    find: (idOrPrefix) => {
      const exact = db.prepare('SELECT * FROM deliveries WHERE id = ?').get(idOrPrefix) as Row | undefined;
      if (exact) return toRecord(exact);
      if (idOrPrefix.length < MIN_ID_PREFIX) return undefined;
      const rows = byPrefix.all(idOrPrefix, `${idOrPrefix}\uffff`) as Row[];
      if (rows.length > 1) return 'ambiguous';
      return rows[0] ? toRecord(rows[0]) : undefined;
    },
    requeue: (id) => {
      const webhook = webhookOf(id);
      const done = write().requeue.run(id).changes > 0;
      // Requeued rows are unowned: counted by whichever run adopts them.
      if (done && webhook && owner === '') adjust(webhook, 1);
      return done;
    },
    claim: (now) => {
      const s = write();
      return db.transaction(() => {
        if (owner !== '') {
          s.heartbeat.run(owner, process.pid, now);
          s.forgetStale.run(now - RUN_STALE_MS, owner);
          // A run whose process is gone (killed) is stopped now, not a minute from now: what it
          // left queued goes out before anything newer of the same sessions.
          for (const run of s.others.all(owner) as { id: string; pid: number }[]) if (!isAlive(run.pid)) s.forget.run(run.id);
        }
        const counts = new Map((s.adoptable.all(owner) as { webhook: string; n: number }[]).map((row) => [row.webhook, row.n]));
        if (counts.size > 0) s.adopt.run(owner, owner);
        for (const row of s.supersededCounts.all(owner) as { webhook: string; n: number }[]) {
          counts.set(row.webhook, Math.max(0, (counts.get(row.webhook) ?? 0) - row.n));
          superseded.set(row.webhook, (superseded.get(row.webhook) ?? 0) + row.n);
        }
        s.supersede.run(owner);
        // Recounted from the table on next use (it now holds the adopted rows).
        for (const webhook of counts.keys()) queued.delete(webhook);
        return counts;
      })();
    },
    release: () => {
      if (owner !== '') write().forget.run(owner);
    },
    exportRows: (scope) => {
      const s = write();
      const rows = (scope === 'queued' ? s.exportQueued.all(owner) : s.exportAll.all()) as (Row & { owner: string })[];
      return rows.map((row) => ({
        id: row.id,
        webhook: row.webhook,
        body: row.body,
        state: row.state,
        attempts: row.attempts,
        status: row.status,
        error: row.error,
        latencyMs: row.latency_ms,
        createdAt: row.created_at,
        lastAttemptAt: row.last_attempt_at,
        owner: row.owner,
        session: row.session,
      }));
    },
    absorb: (rows) => {
      const s = write();
      db.transaction(() => {
        for (const r of rows) s.upsert.run(r.id, r.webhook, r.body, r.state, r.attempts, r.status, r.error, r.latencyMs, r.createdAt, r.lastAttemptAt, r.owner, r.session);
        for (const webhook of new Set(rows.map((r) => r.webhook))) s.trim.run(webhook, webhook, history);
      })();
      // Recounted from the table on next use.
      queued.clear();
    },
    recordState: (session, activity, at) => {
      write().recordState.run(session, activity, at);
    },
    recordStates: (states, at) => {
      const s = write();
      db.transaction(() => {
        for (const [session, activity] of states) s.recordState.run(session, activity, at);
      })();
    },
    takeSuperseded: () => {
      const taken = new Map(superseded);
      superseded.clear();
      return taken;
    },
    lastStates: () => new Map((write().lastStates.all() as { session: SessionKey; activity: Activity }[]).map((row) => [row.session, row.activity])),
    close: () => db.close(),
  };
};

/**
 * The most recent deliveries from the queue file, read-only (the API and `webhooks log` read
 * what the running sink writes); none when the file does not exist yet.
 */
export const readRecentDeliveries = (env: Env, query: { webhook?: string | undefined; limit: number }): DeliveryRecord[] => {
  const file = webhookQueuePath(env);
  if (!existsSync(file)) return [];
  const store = openDeliveryStore(file, { readonly: true });
  try {
    return store.recent(query);
  } finally {
    store.close();
  }
};
