import type { Database } from 'better-sqlite3';
import type { SessionEvent } from '../../core/session.js';
import { selectList } from '../sqlite/columns.js';
import { recordDiagnostic } from '../sqlite/events.js';
import type { DbReader, OpenReader, SessionListing } from '../sqlite/reader.js';
import { withTextIds, type Unchecked } from '../sqlite/text-ids.js';
import { mapCrushSession, type CrushMessageRow, type CrushSessionRow, type CrushSpec } from './map.js';

const SESSION_OPTIONAL = ['parent_session_id', 'title', 'prompt_tokens', 'completion_tokens', 'cost', 'created_at', 'updated_at'] as const;
const MESSAGE_OPTIONAL = ['model', 'created_at', 'updated_at', 'finished_at', 'is_summary_message'] as const;

type ListedRow = CrushSessionRow & { readonly updated_at: unknown; readonly m_stamp: unknown };

/**
 * Opens one project's `crush.db` (docs/formats/crush.md): sessions from `sessions`, their messages
 * from `messages`. A session's stamp is its row (Crush moves its `updated_at` and usage on every
 * turn), its children's cost, and its messages' count and newest update (a message streams in
 * place). Only the columns the replay cannot do without are required.
 */
export const openCrushReader =
  (spec: Omit<CrushSpec, 'dbPath'>): OpenReader =>
  (db: Database, dbPath: string): DbReader => {
    const full: CrushSpec = { ...spec, dbPath };
    const session = selectList(db, 'sessions', ['id'], SESSION_OPTIONAL, 's');
    const message = selectList(db, 'messages', ['id', 'session_id', 'role', 'parts'], MESSAGE_OPTIONAL);
    const childrenCost = session.columns.has('parent_session_id') && session.columns.has('cost') ? `(SELECT total(c.cost) FROM sessions c WHERE c.parent_session_id = s.id)` : `0`;
    const newest = message.columns.has('updated_at') ? `ifnull(max(m.updated_at), '')` : `''`;
    const sessionSql = `SELECT ${session.sql}, ${childrenCost} AS children_cost FROM sessions s`;
    const listStatement = db.prepare(`SELECT *, (SELECT count(*) || ':' || ${newest} FROM messages m WHERE m.session_id = l.id) AS m_stamp FROM (${sessionSql}) l`);
    const getStatement = db.prepare(`${sessionSql} WHERE s.id = ?`);
    const order = message.columns.has('created_at') ? 'created_at, rowid' : 'rowid';
    const messagesStatement = db.prepare(`SELECT ${message.sql} FROM messages WHERE session_id = ? ORDER BY ${order}`);

    const list = (): SessionListing => {
      const listed = withTextIds<ListedRow>(listStatement.all() as Unchecked<ListedRow>[], '"sessions"');
      const diagnostics: SessionEvent[] = listed.skipped ? [{ type: 'diagnostic', agent: 'crush', code: 'E_SCHEMA', message: listed.skipped, path: dbPath }] : [];
      const stamps = new Map<string, string>();
      for (const row of listed.rows) stamps.set(row.id, JSON.stringify(row));
      return { stamps, diagnostics };
    };

    const load = (sessionId: string): readonly SessionEvent[] => {
      const row = getStatement.get(sessionId) as CrushSessionRow | undefined;
      if (!row) return [];
      const checked = withTextIds<CrushMessageRow>(messagesStatement.all(sessionId) as Unchecked<CrushMessageRow>[], 'message');
      const events = mapCrushSession(full, row, checked.rows);
      if (checked.skipped) events.push(recordDiagnostic({ agent: 'crush', sessionId }, dbPath, checked.skipped));
      return events;
    };

    return { list, load };
  };
