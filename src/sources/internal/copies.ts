import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { SessionEvent } from '../../core/session.js';
import { READ_CHUNK_BYTES } from './read-lines.js';

/**
 * Sessions that start with copies of another session's records (a fork, a continuation, a
 * background session): what every source does with the copies, and how it finds what the other
 * session holds.
 */

/**
 * The events of a copied record: its history is this session's (state, tools, times), but its
 * spend, its messages and its sub-agent runs are the other session's, counted there.
 */
export const asCopied = (events: readonly SessionEvent[]): SessionEvent[] =>
  events.flatMap((event): SessionEvent[] => (event.type === 'usage' || event.type === 'subagent_run' ? [] : event.type === 'turn' ? [{ ...event, counts: false }] : [event]));

/** Longer values are no record ids (uuids, pi's 8 hex digits). */
const MAX_VALUE_CHARS = 64;
/** The smallest chunk read (a file that grows while it is read is still read in chunks this large). */
const SMALL_CHUNK_BYTES = 64 * 1024;

/**
 * Every raw string value of `key` (a `jsonKey`: `"uuid":"`) in `file`, up to 64 characters, or
 * undefined when the file cannot be read. Read in chunks: memory stays at one chunk (at most the
 * file's size) plus the values however long the file; each byte is looked at once.
 */
export const rawValuesIn = (file: string, key: Buffer): Set<string> | undefined => {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  const values = new Set<string>();
  let carry = Buffer.alloc(0);
  try {
    // No larger than the file needs (most files looked in are small): a 1 MiB buffer per file is
    // garbage to collect when many are read (every sub-agent of a restored tree, claude/continuation.ts).
    const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, Math.max(SMALL_CHUNK_BYTES, fstatSync(fd).size + 1)));
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      const bytes = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read);
      // What is kept for the next chunk: the start of a key cut at the chunk's edge, or a key
      // whose value ends in the next chunk (an overlong one is dropped: it is no id).
      let at = 0;
      let keepFrom: number | undefined;
      for (let found = bytes.indexOf(key, at); found !== -1; found = bytes.indexOf(key, at)) {
        const start = found + key.length;
        const end = bytes.indexOf(0x22, start);
        if (end === -1) {
          keepFrom = bytes.length - start <= MAX_VALUE_CHARS ? found : bytes.length;
          break;
        }
        if (end - start <= MAX_VALUE_CHARS) values.add(bytes.toString('latin1', start, end));
        at = end + 1;
      }
      keepFrom ??= Math.max(at, bytes.length - (key.length - 1));
      // A copy: `bytes` may be a view of `chunk`, which the next read overwrites.
      carry = Buffer.from(bytes.subarray(keepFrom));
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
  return values;
};
