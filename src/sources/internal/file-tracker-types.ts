import type { Stats } from 'node:fs';
import type { AgentKind } from '../../core/agents.js';
import type { DiagnosticCounts, SessionEvent, SessionMetaPatch, SessionState } from '../../core/session.js';
import type { DiscoveryCache } from './cache.js';
import type { FamilyKey } from './file-family.js';
import type { FileParser } from './file-parser.js';
import type { TwinRank } from './compressed.js';
import type { ReadOptions } from './read-lines.js';

export interface Tracked {
  readonly file: string;
  /** The session the file feeds (codex learns it from its first record: updated after each read). */
  sessionId: string;
  /**
   * Created on first use: a file restored from the cache and never changed since needs none (a
   * warm start of thousands of untouched transcripts creates no parser at all).
   */
  parser: FileParser | undefined;
  makeParser: () => FileParser;
  offset: number;
  ino: number;
  size: number;
  mtimeMs: number;
  /** Lines consumed so far, when read from the start in this process (a warm start resumes mid-file: unknown). */
  line: number | undefined;
  /**
   * The session's state as restored, while nothing has changed it since: a name from a side file
   * that it already holds is then not sent again (it would only clear and reset the checkpoint,
   * load the restored detail and rewrite the cache row: every codex and kimi session with a name,
   * on every warm start).
   */
  known: SessionState | undefined;
  /** Diagnostics of the records read so far (restored with the state: the cache keeps them in its checkpoint). */
  diagnostics: DiagnosticCounts | undefined;
  /** True once a state was sent under `sessionId` (a checkpoint, a restore). */
  announced: boolean;
}

/** What opening a file needs of its stat. */
export interface FileIdentity {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly birthtimeMs?: number;
}

export interface FileTrackerDeps {
  readonly agent: AgentKind;
  /** `born`: when the file was created, where the file system says (a copy made later tells itself by it). */
  readonly createParser: (file: string, sessionId: string, resumed: boolean, restored?: SessionState, born?: number) => FileParser;
  readonly emit: (event: SessionEvent) => void;
  readonly cache?: DiscoveryCache;
  /** Names from side files (thread index, Desktop sidecars), applied whenever a file is (re)opened. */
  readonly sideMeta: (sessionId: string) => SessionMetaPatch | undefined;
  readonly read?: ReadOptions;
  /** Files that continue one session one after another (file-family.ts); read in their order. */
  readonly familyOf?: (file: string) => FamilyKey | undefined;
  /** Which of a family's twins is read while both exist (file-parser.ts `twinRank`). */
  readonly twinRank?: TwinRank;
  /** Where a twin of a file would be (file-parser.ts `twinsOf`): looked at when a read file goes. */
  readonly twinsOf?: (file: string) => readonly string[];
  /** Files read whole on every change (file-parser.ts `readsWhole`). */
  readonly readsWhole?: (file: string) => boolean;
}

export interface FileTracker {
  /**
   * Brings one transcript up to date: first sight (restore from the cache or read from 0), growth
   * (read from the offset), truncation or replacement (reset, read from 0), deletion (removed).
   * Calls for a file already being synced coalesce into one more pass after it. `known`: the
   * file's stats just taken by a discovery pass (its first pass then does not stat it again).
   */
  readonly sync: (file: string, sessionId: string | undefined, known?: Stats) => Promise<void>;
  /**
   * First sight of a file already stat'ed (a discovery pass): when the cache holds it exactly as
   * it is on disk, restores it at once, synchronously, and returns true (nothing to read). A pass
   * primes all its files in one loop, so their restores reach the fold as one batch. Otherwise
   * returns false and the file is left to `sync`.
   */
  readonly prime: (file: string, info: Stats, sessionId: string) => boolean;
  /**
   * `prime` for the files of one family found by a discovery pass: restores the newest state the
   * cache holds for all of them as they are (file-family.ts), and leaves the rest to `sync` (any
   * of their files syncs the family, in order). True when nothing is left to read.
   */
  readonly primeFamily: (members: readonly { readonly file: string; readonly sessionId: string; readonly info: Stats }[]) => boolean;
  /**
   * First sight of a file already stat'ed, for a pass that wants only changes (SourceCtx.changedOnly):
   * true when the cache holds it exactly as it is on disk (nothing is restored or read); otherwise
   * false, and its cache row waits for `sync`, which resumes from it.
   */
  readonly untouched: (file: string, info: Stats) => boolean;
  /** A side file's names for a tracked session: sent with a new checkpoint, unless the session already holds them. */
  readonly applyMeta: (sessionId: string, patch: SessionMetaPatch) => void;
  readonly trackedFiles: () => string[];
  readonly isTrackedFile: (file: string) => boolean;
  /** True when `file` is tracked as it is on disk now (`info`: same inode, size and mtime) and no sync of it runs. */
  readonly isCurrent: (file: string, info: Stats) => boolean;
  /** Gives back the read buffer a first pass grew (watching reads appends, a few KB at a time). */
  readonly trim: () => void;
  /**
   * Drops the parser of the file `state` was persisted from, when the file was read up to exactly
   * its checkpoint and no read is under way: its next growth resumes from `state`, as a warm
   * start does (a cold start's parsers were a tenth of an idle monitor's heap). True when dropped.
   */
  readonly park: (state: SessionState) => boolean;
}
