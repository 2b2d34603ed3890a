import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Claude Code 1.0.x wrote a resumed or continued session (`claude --resume`, `-c`, also with
 * `-p`) to a NEW transcript that starts with copies of the earlier conversation. Those copies keep
 * the earlier session's `sessionId` (the lines written since carry the new file's own), and their
 * uuids and message ids: the spend and the messages are that earlier session's, already counted
 * in its own transcript beside this one.
 *
 * A line is taken for such a copy only when the transcript it names is in the same project folder
 * and holds a line with the same uuid. Anything else fails open and counts here: the earlier
 * transcript was deleted (these lines are then the only record of that spend), a `/resume` bug
 * that wrote another session's new lines into this file, a folder synced from another machine.
 */
export type ContinuationCheck = (lineSessionId: string | undefined, uuid: string | undefined) => boolean;

const UUID_KEY = Buffer.from('"uuid":"');
const SESSION_ID = /^[\w-]{1,128}$/;

/** The uuids a transcript's lines carry (every raw `"uuid":"…"`), or undefined when it cannot be read. */
const uuidsIn = (file: string): Set<string> | undefined => {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const uuids = new Set<string>();
  for (let at = bytes.indexOf(UUID_KEY); at !== -1; at = bytes.indexOf(UUID_KEY, at)) {
    const start = at + UUID_KEY.length;
    const end = bytes.indexOf(0x22, start);
    if (end === -1) break;
    if (end - start <= 64) uuids.add(bytes.toString('latin1', start, end));
    at = end;
  }
  return uuids;
};

/**
 * The check for the lines of the main transcript `file` of session `sessionId`. The copies come
 * first: once a line of the session's own is seen (or a warm start resumes the file past its
 * start, `resumed`), nothing more is a copy and what was read of earlier transcripts is let go.
 * Each earlier transcript a line names is read once; only files that start with another
 * session's lines pay for it.
 */
export const createContinuationCheck = (file: string, sessionId: string, resumed: boolean): ContinuationCheck => {
  const earlier = new Map<string, Set<string> | undefined>();
  let copying = !resumed;
  return (lineSessionId, uuid) => {
    if (!copying || !lineSessionId) return false;
    if (lineSessionId === sessionId) {
      copying = false;
      earlier.clear();
      return false;
    }
    if (!uuid || !SESSION_ID.test(lineSessionId)) return false;
    let uuids = earlier.get(lineSessionId);
    if (!earlier.has(lineSessionId)) {
      uuids = uuidsIn(path.join(path.dirname(file), `${lineSessionId}.jsonl`));
      earlier.set(lineSessionId, uuids);
    }
    return uuids?.has(uuid) === true;
  };
};
