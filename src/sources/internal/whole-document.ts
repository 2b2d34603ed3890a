import { open } from 'node:fs/promises';

/**
 * A file read whole (file-parser.ts `readsWhole`) is held in memory while it is parsed: one
 * larger than this is reported and left unread. Real chats stay far below it.
 */
export const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

export type WholeRead = { readonly kind: 'bytes'; readonly bytes: Buffer } | { readonly kind: 'oversized'; readonly size: number };

/** The bytes of `file` as they are now, unless it holds more than `maxBytes`. */
export const readWhole = async (file: string, maxBytes: number): Promise<WholeRead> => {
  const handle = await open(file, 'r');
  try {
    // The size of the open file: a rewrite that lands meanwhile is another version, read on its own change.
    const { size } = await handle.stat();
    if (size > maxBytes) return { kind: 'oversized', size };
    return { kind: 'bytes', bytes: await handle.readFile() };
  } finally {
    await handle.close();
  }
};
