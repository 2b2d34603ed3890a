/**
 * Pure, chunk-by-chunk line splitting for JSONL files of any size. The reader feeds raw byte
 * chunks; complete lines come out as zero-copy views; a line longer than `maxLineBytes` is never
 * held in memory: its bytes are dropped as they arrive and it is reported once its newline shows up.
 * The bytes after the last newline stay "pending": they are not consumed (the caller re-reads them
 * once the writer finishes the line), so a half-written record is never lost or skipped; at the
 * end of a read, pending bytes that already form a whole JSON object are taken (`settle`).
 */

import { createKeyScanner, type KeyHit } from './key-hits.js';
import { isJsonObject } from './skim.js';

/** Lines above this are skipped with an E_OVERSIZED_LINE diagnostic (real records stay far below). */
export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

export type LineItem =
  /** `bytes` excludes the newline (and a trailing `\r`); `end` is the file offset just after the newline. */
  | { readonly kind: 'line'; readonly bytes: Buffer; readonly end: number }
  /**
   * A line over the cap: never held whole, but its first and last OVERSIZED_KEEP_BYTES are kept,
   * where a record's type, role and ids sit, and the hits of OVERSIZED_KEYS anywhere in it.
   */
  | { readonly kind: 'oversized'; readonly length: number; readonly end: number; readonly head: Buffer; readonly tail: Buffer; readonly keys: readonly KeyHit[] };

/**
 * Keys looked for through the whole of an oversized line (indexes of `KeyHit.key`): a record's
 * timestamp may sit between megabytes of output (a Claude Code tool result writes its output in
 * the message, then its timestamp, then the output again as `toolUseResult`).
 */
export const OVERSIZED_KEYS = { timestamp: 0, toolUseResult: 1 } as const;
const OVERSIZED_KEY_BYTES = [Buffer.from('"timestamp":"'), Buffer.from('"toolUseResult":')];

/** Bytes kept of each end of an oversized line. */
const OVERSIZED_KEEP_BYTES = 64 * 1024;

export interface LineSplitter {
  /** Feeds the next chunk (whose first byte sits at the current position) and returns the complete lines in it. */
  readonly push: (chunk: Buffer) => LineItem[];
  /**
   * At the end of the bytes there are: the pending bytes as a line when they already hold a whole
   * JSON object (a writer that ended its file without a newline, or a copy that dropped it), now
   * consumed; nothing otherwise. A half-written record is never a whole object, so it stays pending.
   */
  readonly settle: () => LineItem | undefined;
  /** File offset just after the last complete line: where the next read must start. */
  readonly consumed: () => number;
}

const NEWLINE = 0x0a;
const CR = 0x0d;
const CLOSE_BRACE = 0x7d;
const SPACE = 0x20;
const TAB = 0x09;

const withoutCr = (bytes: Buffer): Buffer => (bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.subarray(0, bytes.length - 1) : bytes);

// A file saved by a Windows editor may start with a UTF-8 byte-order mark: JSON.parse rejects it,
// and the first record (claude's cwd, codex's session_meta, pi's header) would be lost.
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const withoutBom = (bytes: Buffer): Buffer => (bytes.subarray(0, 3).equals(BOM) ? bytes.subarray(3) : bytes);

/** A splitter for bytes starting at file offset `start`. */
export const createLineSplitter = (start: number, maxLineBytes = DEFAULT_MAX_LINE_BYTES): LineSplitter => {
  let consumed = start;
  // Bytes of the current unfinished line (only while it stays under the cap).
  let pending: Buffer[] = [];
  let pendingLength = 0;
  // True once the current line passed the cap: its bytes are counted, not kept (but its ends are).
  let oversized = false;
  let head = Buffer.alloc(0);
  let tail = Buffer.alloc(0);
  const keys = createKeyScanner(OVERSIZED_KEY_BYTES);
  const keepTail = (bytes: Buffer): void => {
    tail = bytes.length >= OVERSIZED_KEEP_BYTES ? Buffer.from(bytes.subarray(bytes.length - OVERSIZED_KEEP_BYTES)) : Buffer.concat([tail, bytes]).subarray(-OVERSIZED_KEEP_BYTES);
  };
  // Bytes after the line crossed the cap, while the head holds fewer than OVERSIZED_KEEP_BYTES (a cap
  // below that): the head is the line's first bytes however the reads were cut.
  const keepBoth = (bytes: Buffer): void => {
    keys.push(bytes);
    if (head.length < OVERSIZED_KEEP_BYTES) head = Buffer.concat([head, bytes.subarray(0, OVERSIZED_KEEP_BYTES - head.length)]);
    keepTail(bytes);
  };

  const push = (chunk: Buffer): LineItem[] => {
    const items: LineItem[] = [];
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, from);
      if (nl === -1) break;
      const length = pendingLength + (nl - from);
      const end = consumed + length + 1;
      if (oversized || length > maxLineBytes) {
        const last = chunk.subarray(from, nl);
        if (!oversized) {
          // Crossed the cap inside this chunk: its pending bytes are the head.
          const whole = Buffer.concat([...pending, last]);
          head = Buffer.from(whole.subarray(0, OVERSIZED_KEEP_BYTES));
          tail = Buffer.from(whole.subarray(-OVERSIZED_KEEP_BYTES));
          keys.push(whole);
        } else keepBoth(last);
        items.push({ kind: 'oversized', length, end, head, tail: withoutCr(tail), keys: keys.finish() });
        head = Buffer.alloc(0);
        tail = Buffer.alloc(0);
      } else {
        const tail = chunk.subarray(from, nl);
        // NOTE: the common case (line inside one chunk) is a view into the chunk, no copy.
        const bytes = pending.length === 0 ? tail : Buffer.concat([...pending, tail], length);
        // `consumed` is still this line's start offset: only the file's first line can carry a BOM.
        items.push({ kind: 'line', bytes: withoutCr(consumed === 0 ? withoutBom(bytes) : bytes), end });
      }
      consumed = end;
      pending = [];
      pendingLength = 0;
      oversized = false;
      from = nl + 1;
    }
    const rest = chunk.length - from;
    if (rest > 0) {
      pendingLength += rest;
      if (oversized || pendingLength > maxLineBytes) {
        const bytes = chunk.subarray(from);
        if (!oversized) {
          const whole = Buffer.concat([...pending, bytes]);
          head = Buffer.from(whole.subarray(0, OVERSIZED_KEEP_BYTES));
          tail = Buffer.from(whole.subarray(-OVERSIZED_KEEP_BYTES));
          keys.push(whole);
        } else keepBoth(bytes);
        oversized = true;
        pending = [];
      } else {
        // Copy: the caller reuses its read buffer for the next chunk.
        pending.push(Buffer.from(chunk.subarray(from)));
      }
    }
    return items;
  };

  // The last byte of the pending bytes that is not white space: a whole object ends in `}`.
  const lastPendingByte = (): number | undefined => {
    for (let c = pending.length - 1; c >= 0; c -= 1) {
      const chunk = pending[c] ?? Buffer.alloc(0);
      for (let i = chunk.length - 1; i >= 0; i -= 1) {
        const byte = chunk[i];
        if (byte !== SPACE && byte !== TAB && byte !== CR) return byte;
      }
    }
    return undefined;
  };

  const settle = (): LineItem | undefined => {
    // Checked before anything is copied: a line still being written rarely ends in `}`.
    if (oversized || pendingLength === 0 || lastPendingByte() !== CLOSE_BRACE) return undefined;
    const whole = withoutCr(Buffer.concat(pending, pendingLength));
    const bytes = consumed === 0 ? withoutBom(whole) : whole;
    if (!isJsonObject(bytes)) return undefined;
    consumed += pendingLength;
    pending = [];
    pendingLength = 0;
    return { kind: 'line', bytes, end: consumed };
  };

  return { push, settle, consumed: () => consumed };
};
