import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { rawValuesIn } from '../internal/copies.js';
import { epochMs } from '../internal/line-helpers.js';
import { findInHead } from '../internal/read-lines.js';
import { jsonKey, parseJson } from '../internal/skim.js';
import { parentTranscriptOf, type ClaudeFileKind } from './paths.js';

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
const uuidsIn = (file: string): Set<string> | undefined => rawValuesIn(file, UUID_KEY);

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
 * The check of a transcript that may start with copies of others' lines: at its first message
 * line, `originalsOf` gives the uuids of each transcript it would have been copied from (none:
 * nothing is a copy); the copies are the leading lines `held` says those hold, and the first
 * line that is not ends them. A warm start resumed past the file's start (`resumed`) checks
 * nothing: the restored state already left the copies out.
 */
const leadingCopies = <L extends ForkLine>(
  resumed: boolean,
  originalsOf: (first: L, uuid: string) => Set<string>[],
  held: (originals: readonly Set<string>[], uuid: string) => boolean,
): ((line: L) => boolean) => {
  let phase: 'first' | 'copying' | 'done' = resumed ? 'done' : 'first';
  let originals: Set<string>[] = [];
  const stop = (): false => {
    phase = 'done';
    originals = [];
    return false;
  };
  return (line) => {
    const { uuid } = line;
    if (phase === 'done' || !uuid) return false;
    if (phase === 'first') {
      originals = originalsOf(line, uuid);
      if (originals.length === 0) return stop();
      phase = 'copying';
    }
    return held(originals, uuid) ? true : stop();
  };
};

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
export const createBackgroundForkCheck = (file: string, resumed: boolean): ((line: ForkLine) => boolean) =>
  leadingCopies<ForkLine>(
    resumed,
    ({ sessionKind }, uuid) => (sessionKind === 'bg' ? foregroundsOf(file, uuid) : []),
    (originals, uuid) => originals.every((uuids) => uuids.has(uuid)),
  );

/** The uuids of the transcripts beside `file` whose first message is `uuid` and that are not background ones. */
const foregroundsOf = (file: string, uuid: string): Set<string>[] => {
  const dir = path.dirname(file);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.jsonl') && path.join(dir, name) !== file);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const other = path.join(dir, name);
    const first = firstMessageOf(other);
    const uuids = first?.uuid === uuid && first.sessionKind !== 'bg' ? uuidsIn(other) : undefined;
    return uuids ? [uuids] : [];
  });
};

/**
 * How much later than its first message a transcript must have been created to be taken for a
 * copy, and how much earlier than the copy its original must have been: margins for the time
 * between a message and its line reaching the file. Files laid down together (a backup restored,
 * a folder synced, a test's fixtures) are never told apart by this: they all count, as before.
 */
const COPIED_LATER_MS = 60_000;

/** When `file` was created, or 0 when the file system does not say (or the file is gone). */
const bornOf = (file: string): number => {
  try {
    return statSync(file, { throwIfNoEntry: false })?.birthtimeMs ?? 0;
  } catch {
    return 0;
  }
};

/** A transcript of a folder as `folderOf` lists it: when it was created, and its first message's uuid once asked. */
interface Sibling {
  readonly born: number;
  first?: string | null;
}

/** A folder's transcripts, and when they were listed. */
interface Folder {
  readonly listedAt: number;
  readonly files: ReadonlyMap<string, Sibling>;
}

// Listings kept for the next copy in the same folder: a first pass over a restored tree finds
// every transcript a candidate, and each folder is listed once, not once per transcript in it.
const FOLDERS_KEPT = 64;
const folders = new Map<string, Folder>();

/** The transcripts of `dir`, listed no earlier than `bornBy` (a file created before then is in it). */
const folderOf = (dir: string, bornBy: number): ReadonlyMap<string, Sibling> | undefined => {
  const kept = folders.get(dir);
  if (kept !== undefined && kept.listedAt >= bornBy) return kept.files;
  const listedAt = Date.now();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  const files = new Map<string, Sibling>();
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    const other = path.join(dir, name);
    files.set(other, { born: bornOf(other) });
  }
  folders.delete(dir);
  folders.set(dir, { listedAt, files });
  if (folders.size > FOLDERS_KEPT) folders.delete(folders.keys().next().value as string);
  return files;
};

const firstUuidOf = (file: string, sibling: Sibling): string | null => {
  if (sibling.first === undefined) sibling.first = firstMessageOf(file)?.uuid ?? null;
  return sibling.first;
};

/** What an unmarked copy's check needs of a line. */
export interface CopyLine extends ForkLine {
  /** The line's own timestamp (ISO 8601; read on the first message line only). */
  readonly timestamp?: string | undefined;
}

/** When `file` was created (`born`, else its stat), when that was more than a minute after its first message (`timestamp`) was written; else 0. */
const createdLater = (file: string, timestamp: string | undefined, born: number | undefined): number => {
  const at = epochMs(timestamp);
  if (at <= 0) return 0;
  const created = born ?? bornOf(file);
  return created > 0 && created - at > COPIED_LATER_MS ? created : 0;
};

/**
 * Claude Code writes an interactive fork (`claude --resume <id> --fork-session`) to a new
 * transcript that starts with copies of the conversation so far: the copies keep their uuids,
 * message ids, usage and timestamps, get the new session's id, and carry no marker. Tools that copy
 * a transcript under a new session id do the same. The spend and messages of those copies are
 * counted in the transcript they were copied from.
 *
 * Such a transcript was created long after its first message was written (`born`, from its
 * stat). Its original is a transcript beside it whose first message has the same uuid and that was
 * created clearly earlier; the copies are the lines at its start that an original holds (any of
 * them: a fork of a fork holds the lines of both). Where the times do not tell the two apart (no
 * creation time, files laid down together), nothing is trimmed and every line counts here, as
 * does a transcript whose original is gone. A background session (`bg`) has its own check.
 *
 * A sub-agent's transcript (`kind` subagent) can start the same way: Claude Code records the
 * conversation a forked sub-agent inherits at its start (a compaction's `agent-acompact-*`, a side
 * question, a fork sub-agent until about 2.1.118, which later writes a `fork-context-ref` pointer
 * instead), as copies that keep the parent's uuids, message ids, usage and timestamps: that spend is
 * the parent's, and the sub-agent's own is rolled up into it. Its original is the parent session's
 * main transcript, whenever that was created (a parent never copies its sub-agents' lines). A
 * sub-agent written as its lines were (the usual one) reads nothing more. Old `agent-*.jsonl`
 * sidechains are not checked.
 */
export const createForkCopyCheck = (file: string, kind: ClaudeFileKind, resumed: boolean, born?: number): ((line: CopyLine) => boolean) | undefined => {
  if (kind.kind === 'legacy-agent') return undefined;
  const parentId = kind.kind === 'subagent' ? kind.parentId : undefined;
  return leadingCopies<CopyLine>(
    resumed,
    ({ sessionKind, timestamp }, uuid) => {
      if (parentId === undefined && sessionKind === 'bg') return [];
      const created = createdLater(file, timestamp, born);
      if (created === 0) return [];
      return parentId === undefined ? olderOriginalsOf(file, created, uuid) : parentOriginalOf(file, parentId);
    },
    (originals, uuid) => originals.some((uuids) => uuids.has(uuid)),
  );
};

/** The uuids of the main transcript of the session `parentId` whose sub-agent transcript is `file`; none when it is gone. */
const parentOriginalOf = (file: string, parentId: string): Set<string>[] => {
  const parent = parentTranscriptOf(file, parentId);
  const uuids = parent === undefined ? undefined : keptUuidsOf(parent);
  return uuids ? [uuids] : [];
};

// The uuids of the parent transcripts read last, kept while each is unchanged (size, mtime): a
// session's sub-agents that start with copies (on a restored tree, every sub-agent is a candidate)
// read their parent once, not once each. Bounded by the parents and the uuids kept; a larger set
// is not kept.
const PARENTS_KEPT = 16;
const PARENT_UUIDS_KEPT = 20_000;
const parents = new Map<string, { readonly size: number; readonly mtimeMs: number; readonly uuids: Set<string> }>();
let parentUuidsKept = 0;

const keptUuidsOf = (file: string): Set<string> | undefined => {
  let size: number;
  let mtimeMs: number;
  try {
    const stats = statSync(file, { throwIfNoEntry: false });
    if (!stats) return undefined;
    ({ size, mtimeMs } = stats);
  } catch {
    return undefined;
  }
  const kept = parents.get(file);
  if (kept !== undefined) {
    parents.delete(file);
    parentUuidsKept -= kept.uuids.size;
    if (kept.size === size && kept.mtimeMs === mtimeMs) {
      parents.set(file, kept);
      parentUuidsKept += kept.uuids.size;
      return kept.uuids;
    }
  }
  const uuids = uuidsIn(file);
  if (uuids === undefined || uuids.size > PARENT_UUIDS_KEPT) return uuids;
  parents.set(file, { size, mtimeMs, uuids });
  parentUuidsKept += uuids.size;
  for (const [other, entry] of parents) {
    if (parents.size <= PARENTS_KEPT && parentUuidsKept <= PARENT_UUIDS_KEPT) break;
    parents.delete(other);
    parentUuidsKept -= entry.uuids.size;
  }
  return uuids;
};

/** The uuids of the transcripts beside `file` created clearly before it (`created`) whose first message is `uuid`. */
const olderOriginalsOf = (file: string, created: number, uuid: string): Set<string>[] => {
  const siblings = folderOf(path.dirname(file), created);
  const originals: Set<string>[] = [];
  for (const [other, sibling] of siblings ?? []) {
    if (other === file || !(sibling.born > 0 && created - sibling.born > COPIED_LATER_MS) || firstUuidOf(other, sibling) !== uuid) continue;
    const uuids = uuidsIn(other);
    if (uuids) originals.push(uuids);
  }
  return originals;
};
