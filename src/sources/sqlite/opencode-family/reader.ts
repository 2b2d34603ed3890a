import type { Database } from 'better-sqlite3';
import { selectList } from '../columns.js';
import type { DbReader, SessionListing } from '../reader.js';
import { mapFamilySession, type FamilyMessageRow, type FamilyPartRow, type FamilySessionRow, type FamilySpec } from './map.js';

type ListedRow = FamilySessionRow & { readonly m_stamp: unknown; readonly p_stamp: unknown };

const SESSION_OPTIONAL = ['parent_id', 'directory', 'title', 'version', 'time_created', 'time_updated', 'time_compacting', 'model'] as const;

/**
 * Sessions updated within this window also fingerprint their message and part rows (count and sum
 * of time_updated, so an update to any row shows); older ones only their session row and message
 * count, so a large history costs index-only work when something changes.
 * NOTE: a session leaving the window changes its stamp once, and is replayed once.
 */
export const RECENT_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * Opens the opencode/kilo schema (`session`, `message`, `part`; AGENT-FORMATS §5.2, §6.2). Only the
 * columns the replay cannot do without are required; every other column is read when present.
 */
export const openFamilyReader =
  (spec: Omit<FamilySpec, 'dbPath'>) =>
  (db: Database, dbPath: string): DbReader => {
    const full: FamilySpec = { ...spec, dbPath };
    const session = selectList(db, 'session', ['id'], SESSION_OPTIONAL, 's');
    const message = selectList(db, 'message', ['id', 'session_id', 'data'], ['time_created', 'time_updated']);
    const part = selectList(db, 'part', ['id', 'message_id', 'data'], ['session_id', 'time_created', 'time_updated']);

    const has = (columns: ReadonlySet<string>, column: string, expression: string, fallback: string): string =>
      columns.has(column) ? expression : fallback;
    const messageNewest = has(message.columns, 'time_updated', `total(m.time_updated)`, `''`);
    const partNewest = has(part.columns, 'time_updated', `total(p.time_updated)`, `''`);
    const partsOfSession = part.columns.has('session_id')
      ? `p.session_id = s.id`
      : `p.message_id IN (SELECT id FROM message WHERE session_id = s.id)`;
    const hasUpdated = session.columns.has('time_updated');
    const recent = hasUpdated ? `s.time_updated >= @since` : `1`;

    const listSql = `SELECT ${session.sql},
        (SELECT count(*) || ':' || CASE WHEN ${recent} THEN ifnull(${messageNewest}, '') ELSE '' END
           FROM message m WHERE m.session_id = s.id) AS m_stamp,
        CASE WHEN ${recent} THEN (SELECT count(*) || ':' || ifnull(${partNewest}, '') FROM part p WHERE ${partsOfSession}) END AS p_stamp
      FROM session s`;
    const listStatement = db.prepare(listSql);
    const sessionStatement = db.prepare(`SELECT ${session.sql} FROM session s WHERE s.id = ?`);
    const order = (columns: ReadonlySet<string>): string => (columns.has('time_created') ? 'time_created, id' : 'id');
    const messagesStatement = db.prepare(`SELECT ${message.sql} FROM message WHERE session_id = ? ORDER BY ${order(message.columns)}`);
    // NOTE: part.session_id (indexed) when the schema has it; older schemas reach parts through message.
    const partsStatement = db.prepare(
      part.columns.has('session_id')
        ? `SELECT ${part.sql} FROM part WHERE session_id = ? ORDER BY ${order(part.columns)}`
        : `SELECT ${part.sql} FROM part WHERE message_id IN (SELECT id FROM message WHERE session_id = ?) ORDER BY ${order(part.columns)}`,
    );

    const list = (now: number): SessionListing => {
      const rows = (hasUpdated ? listStatement.all({ since: now - RECENT_WINDOW_MS }) : listStatement.all()) as ListedRow[];
      const stamps = new Map<string, string>();
      for (const row of rows) {
        const { m_stamp, p_stamp, ...sessionRow } = row;
        stamps.set(row.id, JSON.stringify([sessionRow, m_stamp, p_stamp]));
      }
      return { stamps, diagnostics: [] };
    };

    const load = (sessionId: string) => {
      const row = sessionStatement.get(sessionId) as FamilySessionRow | undefined;
      if (!row) return [];
      const messages = messagesStatement.all(sessionId) as FamilyMessageRow[];
      const parts = partsStatement.all(sessionId) as FamilyPartRow[];
      return mapFamilySession(full, row, messages, parts);
    };

    return { list, load };
  };
