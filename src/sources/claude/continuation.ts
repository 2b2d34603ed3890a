import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { findInHead } from '../internal/read-lines.js';
import { jsonKey, parseJson } from '../internal/skim.js';

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

const UUID_KEY = jsonKey('uuid');
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

/** What a background fork's check needs of a line. */
export interface ForkLine {
  readonly uuid?: string | undefined;
  readonly sessionKind?: unknown;
}

const HEAD_BYTES = 16 * 1024;

/** The first message line (user or assistant, with a uuid) among the lines of a transcript's first 16 KiB; undefined when there is none there. */
const firstMessageOf = (file: string): ForkLine | undefined =>
  findInHead(file, HEAD_BYTES, (item) => {
    if (item.kind !== 'line') return undefined;
    const record = parseJson(item.bytes.toString('utf8')) as { type?: unknown; uuid?: unknown; sessionKind?: unknown } | undefined;
    return (record?.type === 'user' || record?.type === 'assistant') && typeof record.uuid === 'string' ? { uuid: record.uuid, sessionKind: record.sessionKind } : undefined;
  });

/**
 * Claude Code 2.1.x backgrounds a session (`/background`, Ctrl+B, the agent view) by starting a
 * new one, `sessionKind: "bg"` on every line it writes, that first copies the conversation so far:
 * the copies keep their uuids, message ids, usage and timestamps, with the new session's id. The
 * spend and messages of those copies are the foreground session's, counted in its own transcript.
 *
 * The foreground session is the transcript beside it whose first message has the same uuid and
 * that is not itself a background one. The copies are the lines at the start of the background
 * transcript that every such transcript holds: the first line one of them lacks is the
 * background session's own, and nothing after it is a copy. Where nothing matches, or a warm start
 * resumes the file past its start (`resumed`), every line counts here, as before.
 */
export const createBackgroundForkCheck = (file: string, resumed: boolean): ((line: ForkLine) => boolean) => {
  let phase: 'first' | 'copying' | 'done' = resumed ? 'done' : 'first';
  let originals: Set<string>[] = [];
  const stop = (): false => {
    phase = 'done';
    originals = [];
    return false;
  };
  return ({ uuid, sessionKind }) => {
    if (phase === 'done' || !uuid) return false;
    if (phase === 'first') {
      if (sessionKind !== 'bg') return stop();
      const dir = path.dirname(file);
      let names: string[];
      try {
        names = readdirSync(dir).filter((name) => name.endsWith('.jsonl') && path.join(dir, name) !== file);
      } catch {
        return stop();
      }
      originals = names.flatMap((name) => {
        const other = path.join(dir, name);
        const first = firstMessageOf(other);
        const uuids = first?.uuid === uuid && first.sessionKind !== 'bg' ? uuidsIn(other) : undefined;
        return uuids ? [uuids] : [];
      });
      if (originals.length === 0) return stop();
      phase = 'copying';
    }
    return originals.every((uuids) => uuids.has(uuid)) ? true : stop();
  };
};
