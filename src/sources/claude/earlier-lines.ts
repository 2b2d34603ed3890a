import { closeSync, openSync, readSync } from 'node:fs';
import { parseJson, valueKey } from '../internal/skim.js';

/**
 * What a parser resumed past the start of a transcript (a warm start, or a monitor that let the
 * parser of a file at rest go) did not read itself, yet a record after its checkpoint depends on:
 * whether the user renamed the session (a `custom-title` wins over the generated `ai-title`s 2.1.x
 * keeps writing, and over summaries), and the uuids of the messages before it (a `summary` names
 * the session only when its leaf is one of them). Read from the file's first `end` bytes, once,
 * when such a record first comes.
 */
export interface EarlierLines {
  readonly renamed: boolean;
  /** Every raw `"uuid":"…"` before `end`, in file order. */
  readonly uuids: readonly string[];
}

const CHUNK_BYTES = 1024 * 1024;
// The key without its value's quote: a file written with spaces (`"uuid": "…"`) reads the same.
const UUID_KEY = valueKey('uuid');
const CUSTOM_TITLE = Buffer.from('"custom-title"');
/** A rename's line is short: a partial line up to this long is carried into the next chunk whole. */
const SHORT_LINE_BYTES = 16 * 1024;
/** Enough of a longer partial line for a uuid key and value cut by the chunk's end. */
const UUID_TAIL_BYTES = 64;
const NEWLINE = 0x0a;

const isRename = (line: Buffer): boolean => {
  const record = parseJson(line.toString('utf8')) as { type?: unknown; customTitle?: unknown } | undefined;
  return record?.type === 'custom-title' && typeof record.customTitle === 'string' && record.customTitle !== '';
};

/** Adds the uuids of the raw `"uuid":"…"` keys in `bytes` (whole lines, or part of a long one). */
const addUuids = (bytes: Buffer, uuids: Set<string>): void => {
  for (let at = bytes.indexOf(UUID_KEY); at !== -1; at = bytes.indexOf(UUID_KEY, at + 1)) {
    let quote = at + UUID_KEY.length;
    while (bytes[quote] === 0x20 || bytes[quote] === 0x09) quote += 1;
    if (bytes[quote] !== 0x22) continue;
    const start = quote + 1;
    const stop = bytes.indexOf(0x22, start);
    if (stop === -1) break;
    if (stop - start <= 64) uuids.add(bytes.toString('latin1', start, stop));
  }
};

/** True when one of the whole lines in `bytes` is a rename. */
const holdsRename = (bytes: Buffer): boolean => {
  for (let at = bytes.indexOf(CUSTOM_TITLE); at !== -1; at = bytes.indexOf(CUSTOM_TITLE, at + 1)) {
    const lineEnd = bytes.indexOf(NEWLINE, at);
    if (lineEnd !== -1 && isRename(bytes.subarray(bytes.lastIndexOf(NEWLINE, at) + 1, lineEnd))) return true;
  }
  return false;
};

/** The earlier lines' facts, or undefined when the file cannot be read now (nothing is assumed then). */
export const readEarlierLines = (file: string, end: number): EarlierLines | undefined => {
  // A Set keeps first-insertion order and drops the repeats a carried tail brings.
  const uuids = new Set<string>();
  let renamed = false;
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, Math.max(end, 1)));
    let carried = Buffer.alloc(0);
    for (let position = 0; position < end; ) {
      const n = readSync(fd, chunk, 0, Math.min(chunk.length, end - position), position);
      if (n === 0) break;
      position += n;
      const bytes = carried.length === 0 ? chunk.subarray(0, n) : Buffer.concat([carried, chunk.subarray(0, n)]);
      // Only whole lines are judged for a rename: the partial last one waits for the next chunk.
      const lastLine = bytes.lastIndexOf(NEWLINE) + 1;
      const whole = position >= end ? bytes : bytes.subarray(0, lastLine);
      addUuids(whole, uuids);
      renamed ||= holdsRename(whole);
      const rest = bytes.subarray(lastLine);
      if (rest.length <= SHORT_LINE_BYTES) carried = Buffer.from(rest);
      else {
        // A long line (a tool's output) is no rename: its uuids now, and a tail for one the chunk cut.
        addUuids(rest, uuids);
        carried = Buffer.from(rest.subarray(rest.length - UUID_TAIL_BYTES));
      }
    }
    return { renamed, uuids: [...uuids] };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
};
