import type { Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * A file read whole (file-parser.ts `readsWhole`) is held in memory while it is parsed: one
 * larger than this is reported and left unread. Real chats stay far below it.
 */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

/** What was read, and the stats of the open file just before: the version the bytes are. */
export type WholeRead = ({ readonly kind: 'bytes'; readonly bytes: Buffer } | { readonly kind: 'oversized' }) & { readonly info: Stats };

/** The bytes of `file` as they are now, unless it holds more than `maxBytes`. */
export const readWhole = async (file: string, maxBytes: number): Promise<WholeRead> => {
  const handle = await open(file, 'r');
  try {
    // The stats of the open file, not of the path a moment before (the writer may have truncated it
    // since): a rewrite that lands after them changes them again, and is read on its own change.
    const info = await handle.stat();
    if (info.size > maxBytes) return { kind: 'oversized', info };
    return { kind: 'bytes', bytes: await handle.readFile(), info };
  } finally {
    await handle.close();
  }
};
