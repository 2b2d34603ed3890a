import type { Database } from 'better-sqlite3';
import { DbSchemaError } from './errors.js';

/** The columns a table has, read with PRAGMA table_info; empty when the table does not exist. */
export const tableColumns = (db: Database, table: string): ReadonlySet<string> => {
  const rows = db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[];
  return new Set(rows.map((row) => row.name));
};

/**
 * Probe one table: throw E_DB_SCHEMA naming what is missing when a required column (or the table)
 * is absent, and return an SQL expression per wanted column (`NULL AS col` for missing optional
 * ones), so rows of an older or newer schema are still read rather than skipped.
 *
 * @example selectList(db, 'session', ['id'], ['title']) // ['"id"', 'NULL AS "title"'] when title is missing
 */
export const selectList = (
  db: Database,
  table: string,
  required: readonly string[],
  optional: readonly string[],
  alias = '',
): { readonly columns: ReadonlySet<string>; readonly sql: string } => {
  const columns = tableColumns(db, table);
  if (columns.size === 0) throw new DbSchemaError(`table "${table}" is missing`);
  const missing = required.filter((column) => !columns.has(column));
  if (missing.length > 0) throw new DbSchemaError(`table "${table}" has no column ${missing.map((c) => `"${c}"`).join(', ')}`);
  const prefix = alias ? `${alias}.` : '';
  const sql = [...required, ...optional]
    .map((column) => (columns.has(column) ? `${prefix}"${column}" AS "${column}"` : `NULL AS "${column}"`))
    .join(', ');
  return { columns, sql };
};
