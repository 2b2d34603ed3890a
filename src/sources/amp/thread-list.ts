/**
 * Pure helpers of the `amp threads export` refresh (docs/formats/amp.md): read the table
 * `amp threads list --no-color` prints, and decide which threads to export.
 */

export interface RemoteThread {
  readonly id: string;
  readonly messages: number;
}

/** Thread ids become file names: only the `T-<uuid>` shape is accepted, never a path. */
const isThreadId = (value: string): boolean => /^T-[A-Za-z0-9-]+$/.test(value);

/**
 * Rows of the list table, read from the right (titles may contain anything): the last
 * column separated by two or more spaces is the thread id, the one before it the message count.
 * The two header lines and any row that does not fit are skipped.
 */
export const parseThreadList = (stdout: string): RemoteThread[] =>
  stdout
    .split(/\r?\n/)
    .slice(2)
    .flatMap((line) => {
      const columns = line.trim().split(/\s{2,}/);
      const id = columns[columns.length - 1] ?? '';
      const count = Number(columns[columns.length - 2]);
      return columns.length >= 2 && isThreadId(id) && Number.isInteger(count) && count >= 0 ? [{ id, messages: count }] : [];
    });

/** Messages in a local thread document, counted the cheap way (-1: no local file). */
export const countLocalMessages = (document: string | undefined): number =>
  document === undefined ? -1 : document.split('"messageId"').length - 1;

/**
 * Threads to export: missing locally, with more messages remotely than locally, or grown
 * since the previous listing (a local file can lag even when the counts look equal).
 */
export const planExports = (
  remote: readonly RemoteThread[],
  localCount: (id: string) => number,
  previous: ReadonlyMap<string, number>,
): string[] =>
  remote
    .filter((t) => {
      const local = localCount(t.id);
      const before = previous.get(t.id);
      return local < 0 || t.messages > local || (before !== undefined && t.messages > before);
    })
    .map((t) => t.id);
