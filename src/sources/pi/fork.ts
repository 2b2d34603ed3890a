import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import type { SessionEvent } from '../../core/session.js';
import { READ_CHUNK_BYTES } from '../internal/read-lines.js';
import { jsonKey } from '../internal/skim.js';

// Checked against (facts only): badlogic/pi-mono coding-agent `session-manager.ts`
// (`createBranchedSession`, `SessionManager.forkFrom`); ccusage issue #1634 (fixed in PR #1662).

/**
 * pi writes a fork or clone of a session (`/fork`, `/clone`, `--fork`, a branch taken into a new
 * file, pi-subagents' `context: "fork"`) to a NEW session file: its header names the file it came
 * from (`parentSession`), and the parent's entries follow as copies that keep their `id`s, usage
 * included. The spend and the messages of those copies are the parent's, counted in its own file.
 *
 * An entry of the fork is taken for a copy only when the parent file can be read and holds an
 * entry with the same id. Anything else fails open and counts here: no `parentSession`, a parent
 * deleted or moved (the copies are then the only record of that spend), a warm start that resumes
 * the fork past its header (the restored state already left the copies out).
 */

const ID_KEY = jsonKey('id');
/** pi's entry ids are 8 hex digits (a full uuid as fallback); longer values are not entry ids. */
const MAX_ID_CHARS = 64;

/**
 * The ids a pi session file holds (every raw `"id":"…"`: entries, the header, and tool calls'
 * ids, which no entry id matches), or undefined when it cannot be read. Read in chunks: memory
 * stays at one chunk plus the ids however long the file; each byte is looked at once.
 */
export const idsInPiFile = (file: string): Set<string> | undefined => {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  const ids = new Set<string>();
  const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  let carry = Buffer.alloc(0);
  try {
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      const bytes = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read);
      // What is kept for the next chunk: the start of a key cut at the chunk's edge, or a key
      // whose id ends in the next chunk (an overlong one is dropped: it is no entry id).
      let at = 0;
      let keepFrom: number | undefined;
      for (let key = bytes.indexOf(ID_KEY, at); key !== -1; key = bytes.indexOf(ID_KEY, at)) {
        const start = key + ID_KEY.length;
        const end = bytes.indexOf(0x22, start);
        if (end === -1) {
          keepFrom = bytes.length - start <= MAX_ID_CHARS ? key : bytes.length;
          break;
        }
        if (end - start <= MAX_ID_CHARS) ids.add(bytes.toString('latin1', start, end));
        at = end + 1;
      }
      keepFrom ??= Math.max(at, bytes.length - (ID_KEY.length - 1));
      // A copy: `bytes` may be a view of `chunk`, which the next read overwrites.
      carry = Buffer.from(bytes.subarray(keepFrom));
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
  return ids;
};

/**
 * The ids of the session `file` was forked from, as its header names it (`parentSession`: an
 * absolute path as pi writes it, a relative one is taken from the fork's folder); undefined when
 * the header names none, names the file itself, or the parent cannot be read.
 */
export const parentIdsOf = (file: string, parentSession: string | undefined): ReadonlySet<string> | undefined => {
  if (!parentSession || parentSession.trim() === '') return undefined;
  const parent = path.resolve(path.dirname(file), parentSession);
  if (parent === path.resolve(file)) return undefined;
  return idsInPiFile(parent);
};

/**
 * The events of a copied entry: its history is the fork's (state, tools, times, model), but its
 * spend and its messages are the parent's, counted there.
 */
export const asCopied = (events: readonly SessionEvent[]): SessionEvent[] =>
  events.flatMap((event): SessionEvent[] => (event.type === 'usage' ? [] : event.type === 'turn' ? [{ ...event, counts: false }] : [event]));
