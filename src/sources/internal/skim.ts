/**
 * Cheap byte-level peeks at a JSONL record before paying for a full `JSON.parse`. Agents write
 * compact JSON, so the first `"type":"…"` of a line is the record's own type for every format we
 * read (nested content blocks come after it). A miss only means "parse it fully", never a wrong skip
 * of a record we need, because callers only skip types that are never nested block types.
 */

const TYPE_KEY = Buffer.from('"type":"');

/** The value of the first `"type":"…"` at or after `from`, or undefined. */
export const skimType = (line: Buffer, from = 0): { readonly value: string; readonly end: number } | undefined => {
  const at = line.indexOf(TYPE_KEY, from);
  if (at === -1) return undefined;
  const start = at + TYPE_KEY.length;
  const close = line.indexOf(0x22, start);
  // Type names are short identifiers; anything long or escaped is not one.
  if (close === -1 || close - start > 64) return undefined;
  return { value: line.toString('latin1', start, close), end: close + 1 };
};

/** True when the line contains `needle` (bytes), e.g. `"isSidechain":true`. */
export const hasBytes = (line: Buffer, needle: Buffer): boolean => line.indexOf(needle) !== -1;

/** `JSON.parse` that returns undefined instead of throwing (junk lines are data, not errors). */
export const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

const TIMESTAMP_KEY = Buffer.from('"timestamp":"');

/** The first `"timestamp":"…"` string of a line (codex puts it first), without parsing the rest. */
export const skimTimestamp = (line: Buffer): string | undefined => {
  const at = line.indexOf(TIMESTAMP_KEY);
  if (at === -1) return undefined;
  const start = at + TIMESTAMP_KEY.length;
  const close = line.indexOf(0x22, start);
  return close === -1 || close - start > 40 ? undefined : line.toString('latin1', start, close);
};
