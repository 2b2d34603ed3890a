import type { AgentKind } from '../../core/agents.js';
import type { SessionEvent, SessionMetaPatch, SessionState } from '../../core/session.js';
import type { FamilyKey } from './file-family.js';
import type { TwinRank } from './compressed.js';
import type { KeyHit } from './key-hits.js';

/**
 * The per-agent half of a JSONL source: turns the lines of one transcript into events. One parser
 * per file, fed in file order; it may keep small state (last model, current message id) but
 * must cope with starting mid-file after a warm start.
 */
export interface FileParser {
  /** The session id this file feeds (codex learns it from its first record). */
  readonly sessionId: () => string;
  /** Events the file implies before its first line is read (path, resume command, sidechain by location). */
  readonly start: () => SessionEvent[];
  /** Events of one complete line (no newline). Bad records come back as `diagnostic` events. */
  readonly line: (bytes: Buffer) => SessionEvent[];
  /**
   * Events of a record too large to parse (over the line cap), from its first and last bytes and
   * the keys found anywhere in it (lines.ts, OVERSIZED_KEYS): its type, role, timestamp and tool
   * ids, so the session still moves. Optional.
   */
  readonly oversized?: (head: Buffer, tail: Buffer, keys: readonly KeyHit[]) => SessionEvent[];
  /**
   * For a file the spec reads whole (`JsonlAgentSpec.readsWhole`): the session's complete replay
   * from the file's bytes, or, when they are no complete document (caught mid-rewrite), `ok:
   * false` and the diagnostics saying why; the state read before then stays.
   */
  readonly document?: (bytes: Buffer) => DocumentRead;
}

/** What one read of a whole-document file gives (`FileParser.document`). */
export interface DocumentRead {
  readonly ok: boolean;
  readonly events: SessionEvent[];
}

/** A directory tree a source scans and watches. `depth` counts directory levels below `dir`. */
export interface WatchRoot {
  readonly dir: string;
  readonly depth: number;
}

/** Files beside the transcripts that only name sessions (codex thread names, Claude Desktop titles). */
export interface SideFileSpec {
  readonly roots: readonly WatchRoot[];
  readonly matches: (file: string) => boolean;
  /** The patches one side file gives, per session id (newest wins inside the file). */
  readonly read: (file: string) => ReadonlyMap<string, SessionMetaPatch> | Promise<ReadonlyMap<string, SessionMetaPatch>>;
}

/** Everything the generic engine needs to know about one JSONL agent. */
export interface JsonlAgentSpec {
  readonly agent: AgentKind;
  readonly roots: readonly WatchRoot[];
  /** The session id of `file` (found under `root`), or undefined when it is not a transcript. */
  readonly classify: (root: string, file: string) => string | undefined;
  /** Directory names never descended into (e.g. claude `tool-results`). */
  readonly skipDir?: (name: string) => boolean;
  /**
   * `resumed`: the parser starts mid-file after a warm-start restore; `restored` is the state it
   * resumes from (to seed first-wins fields the earlier lines decided); `born`, when the file was
   * created, where the file system says (a transcript copied into a new file tells itself by it).
   */
  readonly createParser: (file: string, sessionId: string, resumed: boolean, restored?: SessionState, born?: number) => FileParser;
  readonly sideFiles?: SideFileSpec;
  /**
   * For agents that continue a session in a new file (Codex resume segments): the family `file`
   * belongs to. The engine reads a family's files in order, as one transcript (file-family.ts).
   */
  readonly familyOf?: (file: string) => FamilyKey | undefined;
  /**
   * Of a family's twins (files of one name: compressed, or moved to another root such as Codex's
   * `archived_sessions/`), which one is read while both exist: the lowest rank (compressed.ts).
   */
  readonly twinRank?: TwinRank;
  /**
   * The paths where a twin of `file` would be (its compressed or plain form, the same name in the
   * other root). When a file that was read goes, a twin already there takes its place at once.
   */
  readonly twinsOf?: (file: string) => readonly string[];
  /**
   * For files whose records count for another session, which may be written after them (claude's
   * sub-agent transcripts: their usage rolls up into the parent): that session's transcript, or
   * true when it cannot be told from the path. A one-shot listing of a window
   * (`SourceCtx.readSince`) reads such a file whatever its age while that transcript is recent
   * (always, for true). Default: every file counts for its own session only.
   */
  readonly feeds?: (file: string) => string | true | undefined;
  /**
   * Files written as one JSON document and rewritten whole (Gemini CLI's chats before JSONL): any
   * change reads the file again from its first byte through the parser's `document`, and replaces
   * what the last complete read said (file-tracker.ts). Default: none, every file is appended to.
   */
  readonly readsWhole?: (file: string) => boolean;
}

/** A diagnostic event (junk line, schema drift...) with the fields every parser fills the same way. */
export const diagnostic = (
  agent: AgentKind,
  code: Extract<SessionEvent, { type: 'diagnostic' }>['code'],
  message: string,
  extra: { readonly sessionId?: string; readonly path?: string; readonly count?: number } = {},
): SessionEvent => ({ type: 'diagnostic', agent, code, message, ...extra });
