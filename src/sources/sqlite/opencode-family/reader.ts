import type { Database, Statement } from 'better-sqlite3';
import type { SessionEvent } from '../../../core/session.js';
import { selectList, tableColumns } from '../columns.js';
import { DbSchemaError } from '../errors.js';
import { recordDiagnostic } from '../events.js';
import type { DbReader, SessionListing } from '../reader.js';
import { withTextIds, type Unchecked } from '../text-ids.js';
import { numberOf, stringOf } from '../values.js';
import { mapFamilySessionStores, type FamilyMessageRow, type FamilyPartRow, type FamilySessionRow, type FamilySpec } from './map.js';
import { parseForkBoundary, type FamilyV2MessageRow, type ForkBoundary, type ForkCopies } from './map-v2.js';
import { laterHoldersSql, originalsSql, resolveV1Copies, type V1ForkStatements } from './v1-forks.js';

type ListedRow = FamilySessionRow & { readonly m_stamp: unknown; readonly p_stamp: unknown; readonly m_newest: unknown; readonly v2_count: unknown; readonly v2_updated: unknown };

const SESSION_OPTIONAL = ['parent_id', 'directory', 'title', 'version', 'time_created', 'time_updated', 'time_compacting', 'model'] as const;

/**
 * A fork of OpenCode 2.x (`session_v2`; older 2.0 betas and 1.x have neither column): the session
 * it was forked from and where its copy of that session's messages stops. Written once, when the
 * fork is made: read when a session is loaded, not in its listing stamp.
 */
const FORK_COLUMNS = ['fork_session_id', 'fork_boundary'] as const;

type LoadedRow = FamilySessionRow & { readonly fork_session_id: unknown; readonly fork_boundary: unknown };

/**
 * Where sessions live, newest generation first: OpenCode 2.x writes `session_v2` (2.0 releases)
 * and leaves the 1.x `session` table as the upgrade found it; early 2.0 betas kept the name
 * `session`. A session in both is read from the first.
 */
const SESSION_TABLES = ['session_v2', 'session'] as const;

/**
 * Sessions updated within this window also fingerprint their message and part rows (count and sum
 * of time_updated, so an update to any row shows); older ones only their session row and message
 * count, so a large history costs index-only work when something changes.
 * NOTE: a session leaving the window changes its stamp once, and is replayed once.
 */
const RECENT_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * A session's newest activity as its listing shows it: the latest of its row's time_updated and
 * its newest message's time_created (1.x `m_newest`; 2.x after the count in `v2_count`).
 * Undefined when the schema records neither: such a session is always replayed.
 */
const activityOf = (updated: unknown, v1Newest: unknown, v2Count: unknown): number | undefined => {
  const v2Newest = typeof v2Count === 'string' ? Number(v2Count.slice(v2Count.indexOf(':') + 1) || Number.NaN) : Number.NaN;
  const times = [numberOf(updated), numberOf(v1Newest), Number.isFinite(v2Newest) ? v2Newest : undefined].filter((at): at is number => at !== undefined);
  return times.length === 0 ? undefined : Math.max(...times);
};

/** The 1.x message store: `message` rows, their `part` rows. */
interface V1Store {
  readonly stamps: (recent: string) => string;
  /** The newest message's time_created (an index seek), for the session's activity; not in its stamp. */
  readonly newest: string;
  readonly messages: Statement;
  readonly parts: Statement;
  /** What tells a 1.x fork's copies (v1-forks.ts); none without time_created, which the rule reads. */
  readonly forks: V1ForkStatements | undefined;
}

/** The 2.x message store: `session_message` rows, one per message, updated in place while it streams. */
interface V2Store {
  readonly stamps: (recent: string) => string;
  readonly messages: Statement;
  /** A fork's copies of its parent's messages (`forkCopiesSql`); none without `seq`, which copies keep. */
  readonly forkCopies: Statement | undefined;
}

/**
 * One query per fork loaded, two answers in one: the `seq` of the parent's message the boundary
 * names (a primary-key look-up), or, only when that finds nothing (no boundary, or one naming a
 * message the parent no longer has), the `seq`s of the fork's messages identical to the parent's
 * message at the same `seq` (type and data: a copy is the parent's message with a new id), through
 * the (session_id, seq) index (the CROSS JOIN keeps it from scanning the fork at all when the
 * boundary was found). A parent that is gone answers neither.
 */
const forkCopiesSql = `WITH boundary AS (
    SELECT seq FROM session_message WHERE id = @message AND session_id = @parent AND seq IS NOT NULL LIMIT 1
  )
  SELECT 'boundary' AS kind, seq FROM boundary
  UNION ALL
  SELECT 'same' AS kind, f.seq AS seq
    FROM (SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM boundary)) AS unresolved
    CROSS JOIN session_message f
    JOIN session_message p ON p.session_id = @parent AND p.seq = f.seq AND p.type = f.type AND p.data = f.data
    WHERE f.session_id = @fork AND f.seq IS NOT NULL`;

/**
 * Which of a fork's messages are copies (map-v2.ts `ForkCopies`): by its boundary when the
 * database resolves it, else by identity with the parent's messages; undefined, every message
 * counted as before, when neither resolves anything: real usage is never dropped on a guess.
 */
const resolveForkCopies = (statement: Statement, fork: string, parent: string, boundary: ForkBoundary | undefined): ForkCopies | undefined => {
  const rows = statement.all({ fork, parent, message: boundary?.messageId ?? null }) as { kind: unknown; seq: unknown }[];
  const at = rows.find((row) => row.kind === 'boundary');
  const boundarySeq = at && numberOf(at.seq);
  if (boundary && boundarySeq !== undefined) return { boundarySeq, inclusive: boundary.inclusive };
  const seqs = new Set<number>();
  for (const row of rows) {
    const seq = row.kind === 'same' ? numberOf(row.seq) : undefined;
    if (seq !== undefined) seqs.add(seq);
  }
  return seqs.size > 0 ? { seqs } : undefined;
};

const v1Store = (db: Database): V1Store | undefined => {
  if (tableColumns(db, 'message').size === 0) return undefined;
  const message = selectList(db, 'message', ['id', 'session_id', 'data'], ['time_created', 'time_updated']);
  // 1.x writes both or neither: a `message` table without `part` is a schema we cannot read.
  const part = selectList(db, 'part', ['id', 'message_id', 'data'], ['session_id', 'time_created', 'time_updated']);
  const messageNewest = message.columns.has('time_updated') ? `total(m.time_updated)` : `''`;
  const partNewest = part.columns.has('time_updated') ? `total(p.time_updated)` : `''`;
  const partsOfSession = part.columns.has('session_id') ? `p.session_id = s.id` : `p.message_id IN (SELECT id FROM message WHERE session_id = s.id)`;
  const order = (columns: ReadonlySet<string>): string => (columns.has('time_created') ? 'time_created, id' : 'id');
  return {
    stamps: (recent) => `(SELECT count(*) || ':' || CASE WHEN ${recent} THEN ifnull(${messageNewest}, '') ELSE '' END
           FROM message m WHERE m.session_id = s.id) AS m_stamp,
        CASE WHEN ${recent} THEN (SELECT count(*) || ':' || ifnull(${partNewest}, '') FROM part p WHERE ${partsOfSession}) END AS p_stamp`,
    newest: message.columns.has('time_created') ? `(SELECT max(m.time_created) FROM message m WHERE m.session_id = s.id) AS m_newest` : `NULL AS m_newest`,
    messages: db.prepare(`SELECT ${message.sql} FROM message WHERE session_id = ? ORDER BY ${order(message.columns)}`),
    // NOTE: part.session_id (indexed) when the schema has it; older schemas reach parts through message.
    parts: db.prepare(
      part.columns.has('session_id')
        ? `SELECT ${part.sql} FROM part WHERE session_id = ? ORDER BY ${order(part.columns)}`
        : `SELECT ${part.sql} FROM part WHERE message_id IN (SELECT id FROM message WHERE session_id = ?) ORDER BY ${order(part.columns)}`,
    ),
    forks: message.columns.has('time_created')
      ? { originals: db.prepare(originalsSql), laterHolders: tableColumns(db, 'session').has('id') ? db.prepare(laterHoldersSql) : undefined }
      : undefined,
  };
};

const v2Store = (db: Database): V2Store | undefined => {
  if (tableColumns(db, 'session_message').size === 0) return undefined;
  const message = selectList(db, 'session_message', ['id', 'session_id', 'type', 'data'], ['seq', 'time_created', 'time_updated']);
  const has = (column: string): boolean => message.columns.has(column);
  // Most writes to a live 2.x session update a row in place (an answer streaming, a tool
  // finishing): the count alone misses them, so recent sessions also sum time_updated. A session
  // is recent by its own row or by its newest message: 2.x does not move the session's
  // time_updated for usage or the runner going idle.
  const newestMessage = has('time_created') ? `(SELECT max(sm.time_created) FROM session_message sm WHERE sm.session_id = s.id)` : undefined;
  const order = has('seq') ? 'seq, id' : has('time_created') ? 'time_created, id' : 'id';
  // Kilo's CLI bundled with its VS Code extension wrote rows without `seq`, which Kilo itself
  // does not read back: neither do we (the message's 1.x copy, if any, is read instead).
  const numbered = has('seq') ? ' AND seq IS NOT NULL' : '';
  return {
    stamps: (recent) => {
      const isRecent = newestMessage ? `(${recent} OR ifnull(${newestMessage}, 0) >= @since)` : recent;
      return `(SELECT count(*) || ':' || ${has('time_created') ? `ifnull(max(sm.time_created), '')` : `''`} FROM session_message sm WHERE sm.session_id = s.id) AS v2_count,
        CASE WHEN ${isRecent} THEN (SELECT ${has('time_updated') ? 'total(sm.time_updated)' : `''`} FROM session_message sm WHERE sm.session_id = s.id) END AS v2_updated`;
    },
    messages: db.prepare(`SELECT ${message.sql} FROM session_message WHERE session_id = ?${numbered} ORDER BY ${order}`),
    forkCopies: has('seq') ? db.prepare(forkCopiesSql) : undefined,
  };
};

/**
 * Opens the opencode/kilo schema (docs/formats/opencode.md; map.ts for 1.x, map-v2.ts for 2.x):
 * sessions from `session_v2` and/or `session`; each session's messages from both `session_message`
 * (2.x) and `message`/`part` (1.x), a message by its id once (map.ts `mapFamilySessionStores`
 * says why). A fresh 2.x database has no 1.x tables at all. Only the columns the replay cannot do
 * without are required; every other column is read when present.
 */
export const openFamilyReader =
  (spec: Omit<FamilySpec, 'dbPath'>) =>
  (db: Database, dbPath: string): DbReader => {
    const full: FamilySpec = { ...spec, dbPath };
    const tables = SESSION_TABLES.filter((table) => tableColumns(db, table).size > 0);
    if (tables.length === 0) throw new DbSchemaError(`table "session" is missing (and so is "session_v2", where OpenCode 2.x keeps its sessions)`);
    const v1 = v1Store(db);
    const v2 = v2Store(db);
    // Sessions without a message store would all read as empty: a schema we cannot read, not silence.
    if (!v1 && !v2) throw new DbSchemaError(`table "message" is missing (and so is "session_message", where OpenCode 2.x keeps its messages)`);

    const sources = tables.map((table) => {
      const session = selectList(db, table, ['id'], SESSION_OPTIONAL, 's');
      const hasUpdated = session.columns.has('time_updated');
      const recent = hasUpdated ? `s.time_updated >= @since` : `1`;
      const stamps = [v1 ? `${v1.stamps(recent)}, ${v1.newest}` : `NULL AS m_stamp, NULL AS p_stamp, NULL AS m_newest`, v2?.stamps(recent) ?? `NULL AS v2_count, NULL AS v2_updated`];
      const listSql = `SELECT ${session.sql}, ${stamps.join(', ')} FROM ${table} s`;
      const usesSince = listSql.includes('@since');
      const listStatement = db.prepare(listSql);
      return {
        list: (since: number) => withTextIds<ListedRow>((usesSince ? listStatement.all({ since }) : listStatement.all()) as Unchecked<ListedRow>[], `"${table}" session`),
        get: db.prepare(`SELECT ${selectList(db, table, ['id'], [...SESSION_OPTIONAL, ...FORK_COLUMNS], 's').sql} FROM ${table} s WHERE s.id = ?`),
      };
    });

    const list = (now: number): SessionListing => {
      const stamps = new Map<string, string>();
      const activeAt = new Map<string, number>();
      const diagnostics: SessionEvent[] = [];
      for (const source of sources) {
        const listed = source.list(now - RECENT_WINDOW_MS);
        if (listed.skipped) diagnostics.push({ type: 'diagnostic', agent: spec.agent, code: 'E_SCHEMA', message: listed.skipped, path: dbPath });
        for (const row of listed.rows) {
          // A newer generation's row of the same session wins (listed first).
          if (stamps.has(row.id)) continue;
          const { m_stamp, p_stamp, m_newest, v2_count, v2_updated, ...sessionRow } = row;
          stamps.set(row.id, JSON.stringify([sessionRow, m_stamp, p_stamp, v2_count, v2_updated]));
          const at = activityOf(row.time_updated, m_newest, v2_count);
          if (at !== undefined) activeAt.set(row.id, at);
        }
      }
      return { stamps, diagnostics, activeAt };
    };

    const load = (sessionId: string) => {
      let loaded: LoadedRow | undefined;
      for (const source of sources) {
        loaded = source.get.get(sessionId) as LoadedRow | undefined;
        if (loaded) break;
      }
      if (!loaded) return [];
      const { fork_session_id, fork_boundary, ...row } = loaded;
      const skipped: string[] = [];
      const textIds = <T extends { readonly id: string }>(rows: unknown[], what: string): T[] => {
        const checked = withTextIds<T>(rows as Unchecked<T>[], what);
        if (checked.skipped) skipped.push(checked.skipped);
        return checked.rows;
      };
      const v2Rows = v2 ? textIds<FamilyV2MessageRow>(v2.messages.all(sessionId), 'session_message') : [];
      const messages = v1 ? textIds<FamilyMessageRow>(v1.messages.all(sessionId), 'message') : [];
      // Parts only where there are messages to own them (a session of 2.x has none).
      const parts = v1 && messages.length > 0 ? textIds<FamilyPartRow>(v1.parts.all(sessionId), 'part') : [];
      // A fork of 1.x holds copies of another session's messages under new ids, with no link to it:
      // told by their ids (made long after their time_created), confirmed by their originals.
      const v1Copies = v1?.forks && messages.length > 0 ? resolveV1Copies(v1.forks, sessionId, messages) : undefined;
      // A fork of 2.x holds copies of its parent's messages under new ids: resolved once per load.
      const parent = stringOf(fork_session_id);
      const copies =
        parent !== undefined && parent !== sessionId && v2?.forkCopies && v2Rows.length > 0
          ? resolveForkCopies(v2.forkCopies, sessionId, parent, parseForkBoundary(fork_boundary))
          : undefined;
      const events = mapFamilySessionStores(full, row, { messages, parts, ...(v1Copies ? { copies: v1Copies } : {}) }, v2Rows, copies);
      for (const message of skipped) events.push(recordDiagnostic({ agent: spec.agent, sessionId }, dbPath, message));
      return events;
    };

    return { list, load };
  };
