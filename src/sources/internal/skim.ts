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

/** `JSON.parse` that returns undefined instead of throwing (junk lines are data, not errors). */
export const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** Whether the bytes are one whole JSON object (not an array, a string or a part of one). */
export const isJsonObject = (bytes: Buffer): boolean => {
  const json = parseJson(bytes.toString('utf8'));
  return json !== null && typeof json === 'object' && !Array.isArray(json);
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

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** True when the quote at `at` is escaped (an odd run of backslashes before it). */
const isEscaped = (line: Buffer, at: number): boolean => {
  let run = 0;
  for (let i = at - 1; i >= 0 && line[i] === BACKSLASH; i--) run++;
  return run % 2 === 1;
};

/** A cut point at or before `at` that does not split an escape sequence (`\"`, `\\`, `\uXXXX`). */
const safeCut = (line: Buffer, start: number, at: number): number => {
  let cut = at;
  const backslash = line.lastIndexOf(BACKSLASH, cut - 1);
  if (backslash >= start && backslash >= cut - 6) cut = backslash;
  while (cut > start && line[cut - 1] === BACKSLASH) cut--;
  return cut;
};

/** The string opening at `open` is the value of one of `keys` (each `"name":`, as `valueKey` builds it). */
const isValueOf = (line: Buffer, open: number, keys: readonly Buffer[]): boolean =>
  keys.some((key) => open >= key.length && line.compare(key, 0, key.length, open - key.length, open) === 0);

/** `"name":` as bytes: a key whose string values `elideLongStrings` keeps whole. */
export const valueKey = (name: string): Buffer => Buffer.from(`"${name}":`);

/**
 * Copies a JSON line with every string value longer than `keep` bytes cut to its first `keep`
 * bytes (never inside an escape), so `JSON.parse` of a record with megabytes of tool output
 * costs what the record's structure costs. Keys, numbers, booleans and short strings are kept
 * byte for byte; only the tails of long strings (tool output, file contents, patches) are lost.
 * Values of `keepKeys` (message text: the search index needs all of it) are kept whole.
 * Works on raw bytes: a string ends at the first quote not escaped by an odd backslash run.
 */
export const elideLongStrings = (line: Buffer, keep = 1024, keepKeys: readonly Buffer[] = []): Buffer => {
  const parts: Buffer[] = [];
  let copiedTo = 0;
  let from = 0;
  for (;;) {
    const open = line.indexOf(QUOTE, from);
    if (open === -1) break;
    let close = line.indexOf(QUOTE, open + 1);
    while (close !== -1 && isEscaped(line, close)) close = line.indexOf(QUOTE, close + 1);
    if (close === -1) break;
    if (close - open - 1 > keep && !isValueOf(line, open, keepKeys)) {
      const cut = safeCut(line, open + 1, open + 1 + keep);
      parts.push(line.subarray(copiedTo, cut));
      copiedTo = close;
    }
    from = close + 1;
  }
  if (parts.length === 0) return line;
  parts.push(line.subarray(copiedTo));
  return Buffer.concat(parts);
};

/** Lines above this take an agent's fast path when it has one (tiny records are parsed and validated in full). */
export const FAST_PATH_MIN_BYTES = 256;

/**
 * The plain string value of the first (or last) `"<key>":"…"` in a line. Inside JSON strings every
 * quote is escaped, so an unescaped `"key":"` is always a real key. Values with escapes (never the
 * case for ids and timestamps) give undefined, and callers fall back to a full parse.
 */
export const skimString = (line: Buffer, key: Buffer, options: { readonly from?: number; readonly last?: boolean } = {}): { readonly value: string; readonly end: number } | undefined => {
  const at = options.last ? line.lastIndexOf(key) : line.indexOf(key, options.from ?? 0);
  if (at === -1 || at < (options.from ?? 0)) return undefined;
  const start = at + key.length;
  const close = line.indexOf(QUOTE, start);
  if (close === -1 || close - start > 256 || line.subarray(start, close).includes(BACKSLASH)) return undefined;
  return { value: line.toString('utf8', start, close), end: close + 1 };
};

/** Byte-string keys for `skimString`, built once. */
export const jsonKey = (name: string): Buffer => Buffer.from(`"${name}":"`);
