import { closeSync, openSync, readSync } from 'node:fs';
import { yieldIfDue } from '../../util/next-turn.js';
import { pageBuffer } from '../../util/page-buffer.js';
import { createLineSplitter, DEFAULT_MAX_LINE_BYTES, type LineItem } from './lines.js';

/** Chunk size of `findInHead`: the records it looks for sit in a file's first few KiB. */
const HEAD_CHUNK_BYTES = 64 * 1024;

export const READ_CHUNK_BYTES = 1024 * 1024;
/**
 * What is left to read of a file up to this size is read in one call: every line is then a view
 * into one buffer. Read in 1 MiB chunks, a multi-MB tool output crossing chunk edges was copied
 * twice (pending pieces, then their concatenation): a large share of a cold start's CPU.
 */
export const WHOLE_READ_BYTES = 16 * 1024 * 1024;

/**
 * A buffer to read into, reused across files (one per source): a cold start reads thousands of
 * files, and a fresh buffer per file is garbage the size of the corpus. It grows to the largest
 * read (at most WHOLE_READ_BYTES); `trim` gives a grown one back. Safe to share because every
 * chunk is split and handled before the next await. A grown one is mapped outside malloc
 * (util/page-buffer.ts): freeing it would leave malloc's heap fragmented for good.
 */
export interface Scratch {
  /** A buffer of at least `bytes` (up to WHOLE_READ_BYTES; never smaller than READ_CHUNK_BYTES). */
  readonly get: (bytes: number) => Buffer;
  /** Drops a buffer grown past READ_CHUNK_BYTES (after a first pass: a watcher reads appends). */
  readonly trim: () => void;
}

/**
 * A grown buffer is page-mapped (util/page-buffer.ts); the size a watcher keeps comes from malloc.
 * Freeing a block of READ_CHUNK_BYTES raises glibc's threshold no further than V8's compiler does
 * anyway, and a WebAssembly memory also reserves 10 GiB of address space (never resident): none is
 * left once a pass has trimmed.
 */
const allocate = (bytes: number): Buffer => (bytes > READ_CHUNK_BYTES ? pageBuffer(bytes) : Buffer.allocUnsafe(bytes));

export const createScratch = (): Scratch => {
  let buffer: Buffer | undefined;
  return {
    get: (bytes) => {
      const want = Math.min(Math.max(bytes, READ_CHUNK_BYTES), WHOLE_READ_BYTES);
      // Doubling: a pass over files of rising sizes maps a few buffers, not one per new largest
      // file (each lives until collected); pages beyond the bytes read are never touched.
      if (buffer === undefined || buffer.length < want) buffer = allocate(Math.min(WHOLE_READ_BYTES, Math.max(want, 2 * (buffer?.length ?? 0))));
      return buffer;
    },
    trim: () => {
      if (buffer !== undefined && buffer.length > READ_CHUNK_BYTES) buffer = undefined;
    },
  };
};

export interface ReadOptions {
  /** Fixed chunk size (tests of lines crossing chunk edges); default: the whole rest up to WHOLE_READ_BYTES. */
  readonly chunkBytes?: number;
  readonly maxLineBytes?: number;
  /** A file read whole (file-parser.ts `readsWhole`) larger than this is reported, not read (default MAX_DOCUMENT_BYTES). */
  readonly maxDocumentBytes?: number;
  readonly scratch?: Scratch;
}

/**
 * Reads `file` from byte `start` to its current end in fixed-size chunks, handing the complete
 * lines of each chunk to `onChunk` together with the offset they bring the reader to. Memory stays
 * bounded by one chunk plus one (capped) line whatever the file size. A trailing line without its
 * newline is left unread, unless it already holds a whole JSON object. Returns the offset after
 * the last line read and the bytes read.
 *
 * NOTE: synchronous reads on purpose: a cold start opens thousands of small files and the
 * thread-pool round trips of fs/promises cost more than the reads themselves; reads yield to the
 * event loop in time slices (next-turn.ts) so watchers and other sources keep flowing.
 */
export const readLinesFrom = async (
  file: string,
  start: number,
  sizeHint: number,
  onChunk: (items: readonly LineItem[], consumed: number) => void,
  options: ReadOptions = {},
): Promise<{ readonly consumed: number; readonly end: number }> => {
  const fd = openSync(file, 'r');
  try {
    const splitter = createLineSplitter(start, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
    // One byte more than the rest, so a file that did not grow meanwhile is read to its end in one call.
    const rest = Math.max(0, sizeHint - start) + 1;
    // A fixed chunk size (tests) gets its own buffer; without a scratch buffer, small files get a
    // small one, and a big one is page-mapped as a grown scratch buffer is.
    const buffer = options.chunkBytes !== undefined ? Buffer.allocUnsafe(options.chunkBytes) : (options.scratch?.get(rest) ?? allocate(Math.max(4096, Math.min(WHOLE_READ_BYTES, rest))));
    let position = start;
    for (;;) {
      const bytesRead = readSync(fd, buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const items = splitter.push(buffer.subarray(0, bytesRead));
      if (items.length > 0) onChunk(items, splitter.consumed());
      await yieldIfDue();
    }
    const settled = splitter.settle();
    if (settled) onChunk([settled], splitter.consumed());
    return { consumed: splitter.consumed(), end: position };
  } finally {
    closeSync(fd);
  }
};

/**
 * The first result `visit` gives for the lines at the start of `file`, at most `maxBytes` of it,
 * cut as every read cuts them (lines.ts: a byte-order mark, a `\r`, a line over `maxBytes` comes
 * as `oversized`); undefined when no line gives one, or the file cannot be read now. For a record
 * a file starts with (a rollout's session_meta, a transcript's first message), read synchronously
 * as the rest of a pass reads.
 */
export const findInHead = <T>(file: string, maxBytes: number, visit: (item: LineItem) => T | undefined): T | undefined => {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(Math.min(HEAD_CHUNK_BYTES, maxBytes));
    const splitter = createLineSplitter(0, maxBytes);
    for (let read = 0; read < maxBytes; ) {
      const n = readSync(fd, buffer, 0, Math.min(buffer.length, maxBytes - read), read);
      if (n === 0) return undefined;
      read += n;
      for (const item of splitter.push(buffer.subarray(0, n))) {
        const found = visit(item);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
};
