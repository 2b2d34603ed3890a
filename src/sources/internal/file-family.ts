import type { AgentKind } from '../../core/agents.js';
import type { FileStamp } from '../../core/session.js';
import type { CachedFile } from './cache.js';
import { isCompressedTranscript } from './compressed.js';

/**
 * Files that feed one session one after another (a Codex thread resumed or reverted into a new
 * segment file, `rollout-<ts>-<thread>_<segment>.jsonl`): the session's state is the fold of
 * every file in order, so the engine reads them in that order and a checkpoint names the earlier
 * files it holds (`FileCheckpoint.before`).
 */
export interface FamilyKey {
  /** The same for every file of the family. */
  readonly key: string;
  /** The file's place in the family: files are read in ascending order of this text. */
  readonly order: string;
}

/** What the engine compares of a file's stats. */
export type FileStat = { readonly ino: number; readonly size: number; readonly mtimeMs: number };

export const stampOf = (path: string, info: FileStat): FileStamp => ({ path, size: info.size, mtimeMs: info.mtimeMs, ino: info.ino });

/** True when `info` is the file `stamp` describes, as it was. */
const sameAsStamp = (stamp: FileStamp, info: FileStat): boolean =>
  stamp.size === info.size && stamp.mtimeMs === info.mtimeMs && (stamp.ino === undefined || stamp.ino === info.ino);

/**
 * True when the file can resume from `cached`: the same file (inode, when recorded), not shorter
 * than what was read, and not rewritten in place (same size, newer mtime: appends always grow a
 * transcript).
 */
export const resumableFrom = (cached: CachedFile, info: FileStat, agent: AgentKind): boolean =>
  cached.agent === agent &&
  cached.offset <= info.size &&
  (cached.ino === undefined || cached.ino === info.ino) &&
  !(cached.size === info.size && cached.mtimeMs !== info.mtimeMs) &&
  // A compressed transcript is never appended to: changed at all, it is another file.
  (!isCompressedTranscript(cached.path) || (cached.size === info.size && cached.mtimeMs === info.mtimeMs));

/** True when `cached` holds the file exactly as it is: nothing to read. */
export const untouchedSince = (cached: CachedFile, info: FileStat, agent: AgentKind): boolean =>
  resumableFrom(cached, info, agent) && cached.size === info.size && cached.mtimeMs === info.mtimeMs;

export interface FamilyMember {
  readonly file: string;
  readonly info: FileStat;
  readonly cached: CachedFile | undefined;
}

/**
 * The member (index into `members`, in family order) whose cached state a first sight of the
 * family restores: the newest whose row its file can resume from and whose checkpoint names
 * exactly the members before it, each as it is now. The members after it are read from their
 * first byte; -1 when no row qualifies (every member is read).
 */
export const familyRestorePoint = (members: readonly FamilyMember[], agent: AgentKind): number => {
  for (let i = members.length - 1; i >= 0; i -= 1) {
    const { cached, info } = members[i] as FamilyMember;
    if (cached === undefined || !resumableFrom(cached, info, agent)) continue;
    const before = cached.state.checkpoint?.before ?? [];
    if (before.length !== i) continue;
    const sessionId = cached.sessionId;
    const intact = before.every((stamp, j) => {
      const member = members[j] as FamilyMember;
      return stamp.path === member.file && sameAsStamp(stamp, member.info) && (member.cached === undefined || member.cached.sessionId === sessionId);
    });
    if (intact) return i;
  }
  return -1;
};
