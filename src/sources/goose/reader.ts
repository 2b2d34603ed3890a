import type { Database } from 'better-sqlite3';
import type { SessionEvent } from '../../core/session.js';
import { selectList } from '../sqlite/columns.js';
import { recordDiagnostic } from '../sqlite/events.js';
import type { DbReader, OpenReader, SessionListing } from '../sqlite/reader.js';
import { withTextIds, type Unchecked } from '../sqlite/text-ids.js';
import { mapGooseSession, type GooseMessageRow, type GooseSessionRow, type GooseSpec } from './map.js';

const SESSION_OPTIONAL = [
  'name',
  'description',
  'session_type',
  'working_dir',
  'created_at',
  'updated_at',
  'accumulated_input_tokens',
  'accumulated_output_tokens',
  'accumulated_cost',
  'model_config_json',
] as const;

type ListedRow = GooseSessionRow & { readonly updated_at: unknown; readonly m_stamp: unknown };

/**
 * Opens Goose's `sessions.db` (docs/formats/goose.md): sessions from `sessions`, their messages from
 * `messages` (an integer id each, in insertion order). A session's stamp is its row and its
 * messages' count and newest id: Goose appends messages, and replaces a whole conversation (a
 * compaction, a truncation) by deleting and inserting, which moves both.
 */
export const openGooseReader =
  (spec: Omit<GooseSpec, 'dbPath'>): OpenReader =>
  (db: Database, dbPath: string): DbReader => {
    const full: GooseSpec = { ...spec, dbPath };
    const session = selectList(db, 'sessions', ['id'], SESSION_OPTIONAL, 's');
    const message = selectList(db, 'messages', ['id', 'session_id', 'role', 'content_json'], ['created_timestamp', 'metadata_json']);
    const sessionSql = `SELECT ${session.sql} FROM sessions s`;
    const listStatement = db.prepare(`SELECT *, (SELECT count(*) || ':' || ifnull(max(m.id), '') FROM messages m WHERE m.session_id = l.id) AS m_stamp FROM (${sessionSql}) l`);
    const getStatement = db.prepare(`${sessionSql} WHERE s.id = ?`);
    const messagesStatement = db.prepare(`SELECT ${message.sql} FROM messages WHERE session_id = ? ORDER BY id`);

    const list = (): SessionListing => {
      const listed = withTextIds<ListedRow>(listStatement.all() as Unchecked<ListedRow>[], '"sessions"');
      const diagnostics: SessionEvent[] = listed.skipped ? [{ type: 'diagnostic', agent: 'goose', code: 'E_SCHEMA', message: listed.skipped, path: dbPath }] : [];
      const stamps = new Map<string, string>();
      for (const row of listed.rows) stamps.set(row.id, JSON.stringify(row));
      return { stamps, diagnostics };
    };

    const load = (sessionId: string): readonly SessionEvent[] => {
      const row = getStatement.get(sessionId) as GooseSessionRow | undefined;
      if (!row) return [];
      // Goose's message ids are integers: made text here, as every replay keys rows by text ids.
      const rows = (messagesStatement.all(sessionId) as Unchecked<GooseMessageRow>[]).map((m) => (typeof m.id === 'number' || typeof m.id === 'bigint' ? { ...m, id: String(m.id) } : m));
      const checked = withTextIds<GooseMessageRow>(rows, 'message');
      const events = mapGooseSession(full, row, checked.rows);
      if (checked.skipped) events.push(recordDiagnostic({ agent: 'goose', sessionId }, dbPath, checked.skipped));
      return events;
    };

    return { list, load };
  };
