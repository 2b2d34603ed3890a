import path from 'node:path';
import { rawValuesIn } from '../internal/copies.js';
import { jsonKey } from '../internal/skim.js';

// How pi writes a fork (a branched session, `forkFrom`): docs/formats/pi.md.

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

/**
 * The ids of the session `file` was forked from, as its header names it (`parentSession`: an
 * absolute path as pi writes it, a relative one is taken from the fork's folder); undefined when
 * the header names none, names the file itself, or the parent cannot be read.
 */
export const parentIdsOf = (file: string, parentSession: string | undefined): ReadonlySet<string> | undefined => {
  if (!parentSession || parentSession.trim() === '') return undefined;
  const parent = path.resolve(path.dirname(file), parentSession);
  if (parent === path.resolve(file)) return undefined;
  // Every raw `"id":"…"`: entries, the header, and tool calls' ids, which no entry id matches.
  return rawValuesIn(parent, ID_KEY);
};
