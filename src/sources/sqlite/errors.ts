import type { AgentKind } from '../../core/agents.js';
import type { DiagnosticCode, SessionEvent } from '../../core/session.js';

/**
 * Thrown by a reader when the database lacks a table or column it cannot do without, e.g. a schema
 * written by a newer (or much older) agent version. Classified as E_DB_SCHEMA.
 */
export class DbSchemaError extends Error {
  override readonly name = 'DbSchemaError';
}

/** Thrown by the poller when the file is damaged in a way SQLite reads without an error (a last page cut short). Classified as E_DB_CORRUPT. */
export class DbCorruptError extends Error {
  override readonly name = 'DbCorruptError';
}

/** What the poll loop reports for a failure; `key` lets it report a persisting failure once. */
export interface DbFailure {
  readonly code: DiagnosticCode;
  readonly message: string;
}

/**
 * How a locked or corrupt database's message ends: the running monitor polls it again. A command
 * that reads once drops it (doctor/report.ts `oneShotMessage`).
 */
export const RETRY_NOTE = '; retrying on the next poll';

const sqliteCode = (error: unknown): string =>
  typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : '';

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Pure: a thrown value from better-sqlite3 (or a reader) -> diagnostic code and a one-line message
 * naming the agent, the database and what went wrong.
 *
 * @example classifyDbError('Kilo', '/d/kilo.db', sqliteError('SQLITE_BUSY')) // { code: 'E_DB_LOCKED', ... }
 */
export const classifyDbError = (label: string, dbPath: string, error: unknown): DbFailure => {
  const code = sqliteCode(error);
  const detail = messageOf(error);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return { code: 'E_DB_LOCKED', message: `${label}: database ${dbPath} is locked (${detail})${RETRY_NOTE}` };
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || error instanceof DbCorruptError) {
    return { code: 'E_DB_CORRUPT', message: `${label}: database ${dbPath} is corrupt or not a database (${detail})${RETRY_NOTE}` };
  }
  if (error instanceof DbSchemaError || /no such (table|column)/i.test(detail)) {
    return { code: 'E_DB_SCHEMA', message: `${label}: unexpected schema in ${dbPath}: ${detail} (written by a newer or older version?)` };
  }
  return { code: 'E_READ', message: `${label}: cannot read ${dbPath}: ${detail}` };
};

export const failureEvent = (agent: AgentKind, dbPath: string, failure: DbFailure): SessionEvent => ({
  type: 'diagnostic',
  agent,
  code: failure.code,
  message: failure.message,
  path: dbPath,
});
