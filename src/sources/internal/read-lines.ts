import { open } from 'node:fs/promises';
import { createLineSplitter, DEFAULT_MAX_LINE_BYTES, type LineItem } from './lines.js';

export const READ_CHUNK_BYTES = 1024 * 1024;

export interface ReadOutcome {
  /** Offset just after the last complete line: where the next read starts. */
  readonly consumed: number;
  /** The file as seen through the open handle once reading stopped. */
  readonly size: number;
  readonly mtimeMs: number;
  readonly ino: number;
}

export interface ReadOptions {
  readonly chunkBytes?: number;
  readonly maxLineBytes?: number;
}

/**
 * Reads `file` from byte `start` to its current end in fixed-size chunks, handing the complete
 * lines of each chunk to `onChunk` together with the offset they bring the reader to. Memory stays
 * bounded by one chunk plus one (capped) line whatever the file size. A trailing line without its
 * newline is left unread.
 */
export const readLinesFrom = async (
  file: string,
  start: number,
  onChunk: (items: readonly LineItem[], consumed: number) => void,
  options: ReadOptions = {},
): Promise<ReadOutcome> => {
  const handle = await open(file, 'r');
  try {
    const chunkBytes = options.chunkBytes ?? READ_CHUNK_BYTES;
    const splitter = createLineSplitter(start, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
    const first = await handle.stat();
    // Small files get a small buffer: thousands of transcripts are read on a cold start.
    const buffer = Buffer.allocUnsafe(Math.max(4096, Math.min(chunkBytes, first.size - start + 1)));
    let position = start;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const items = splitter.push(buffer.subarray(0, bytesRead));
      if (items.length > 0) onChunk(items, splitter.consumed());
    }
    const last = await handle.stat();
    return { consumed: splitter.consumed(), size: last.size, mtimeMs: last.mtimeMs, ino: last.ino };
  } finally {
    await handle.close();
  }
};
