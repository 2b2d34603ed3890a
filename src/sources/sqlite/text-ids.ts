/**
 * SQLite stores any value in any column: an agent's TEXT primary key may hold NULL (allowed in a
 * non-INTEGER primary key) or a BLOB. Such a row cannot name a session, a message or a part, and
 * read as one its id would travel into events (a BLOB as a `sessionId`), so readers keep only rows
 * whose id is non-empty text and count the others in one diagnostic per kind of row.
 */

const kindOf = (value: unknown): string => {
  if (value === null || value === undefined) return 'NULL';
  if (Buffer.isBuffer(value)) return 'a BLOB';
  if (value === '') return 'empty';
  return `a ${typeof value}`;
};

/** A row as the database hands it back: its `id` may be anything. */
export type Unchecked<T extends { readonly id: string }> = Omit<T, 'id'> & { readonly id: unknown };

export interface TextIdRows<T> {
  readonly rows: T[];
  /** Why rows were left out, e.g. `2 message rows whose id is NULL or a BLOB, not text, skipped`; undefined when none were. */
  readonly skipped: string | undefined;
}

/**
 * The rows of `rows` whose `id` is non-empty text, and the message of the diagnostic for the
 * others (a stable one: the poller reports a message once).
 *
 * @example withTextIds([{ id: 'a' }, { id: null }], 'message').skipped // '1 message row whose id is NULL, not text, skipped'
 */
export const withTextIds = <T extends { readonly id: string }>(rows: readonly Unchecked<T>[], what: string): TextIdRows<T> => {
  const kept: T[] = [];
  const kinds = new Set<string>();
  for (const row of rows) {
    if (typeof row.id === 'string' && row.id !== '') kept.push(row as unknown as T);
    else kinds.add(kindOf(row.id));
  }
  const left = rows.length - kept.length;
  if (left === 0) return { rows: kept, skipped: undefined };
  return { rows: kept, skipped: `${left} ${what} row${left === 1 ? '' : 's'} whose id is ${[...kinds].sort().join(' or ')}, not text, skipped` };
};
