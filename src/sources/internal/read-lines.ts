import { closeSync, openSync, readSync } from 'node:fs';
import { createLineSplitter, DEFAULT_MAX_LINE_BYTES, type LineItem } from './lines.js';

export const READ_CHUNK_BYTES = 1024 * 1024;
/** Give the event loop a turn after this many bytes of one big file. */
const YIELD_EVERY_BYTES = 4 * READ_CHUNK_BYTES;

export interface ReadOptions {
  readonly chunkBytes?: number;
  readonly maxLineBytes?: number;
  /**
   * A buffer to read into, reused across files (one per source): a cold start reads thousands of
   * files, and a fresh buffer per file is garbage the size of the corpus. Safe to share because
   * every chunk is split and handled before the next await.
   */
  readonly scratch?: Buffer;
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Reads `file` from byte `start` to its current end in fixed-size chunks, handing the complete
 * lines of each chunk to `onChunk` together with the offset they bring the reader to. Memory stays
 * bounded by one chunk plus one (capped) line whatever the file size. A trailing line without its
 * newline is left unread. Returns the offset after the last complete line and the bytes read.
 *
 * NOTE: synchronous reads on purpose: a cold start opens thousands of small files and the
 * thread-pool round trips of fs/promises cost more than the reads themselves; big files yield to
 * the event loop every few MiB so watchers and other sources keep flowing.
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
    const chunkBytes = options.chunkBytes ?? READ_CHUNK_BYTES;
    const splitter = createLineSplitter(start, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
    // Without a scratch buffer, small files get a small one (one read, plus one to see the end).
    const buffer = options.scratch ?? Buffer.allocUnsafe(Math.max(4096, Math.min(chunkBytes, sizeHint - start + 1)));
    let position = start;
    let sinceYield = 0;
    for (;;) {
      const bytesRead = readSync(fd, buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const items = splitter.push(buffer.subarray(0, bytesRead));
      if (items.length > 0) onChunk(items, splitter.consumed());
      sinceYield += bytesRead;
      if (sinceYield >= YIELD_EVERY_BYTES) {
        sinceYield = 0;
        await yieldToEventLoop();
      }
    }
    return { consumed: splitter.consumed(), end: position };
  } finally {
    closeSync(fd);
  }
};
