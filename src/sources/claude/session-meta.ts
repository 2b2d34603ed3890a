import type { SessionEvent, SessionMetaPatch, SessionState } from '../../core/session.js';
import type { ClaudeFileKind } from './paths.js';
import type { ClaudeRecord } from './schema.js';

export interface SessionMeta {
  /** The meta patch `record` brings (cwd, version, branch, model, start, parent, sidechain), if any. */
  readonly of: (record: ClaudeRecord, at: number) => SessionEvent[];
  /** Whether the file is a sub-agent's transcript; undefined until its first message line says. */
  readonly sidechainFile: () => boolean | undefined;
  /** The Claude Code version that wrote the file, as far as read. */
  readonly version: () => string | undefined;
}

/**
 * The session's meta, from the records of one transcript. What this parser (or, after a warm
 * start, the restored state) already told the fold is remembered, so meta is emitted only on
 * change and the first cwd keeps winning across restarts.
 */
export const createSessionMeta = (kind: ClaudeFileKind, ref: { readonly agent: 'claude'; readonly sessionId: string }, resumed: boolean, restored: SessionState | undefined): SessionMeta => {
  const { sessionId } = ref;
  const known: { cwd?: string; version?: string; gitBranch?: string; model?: string } = {
    ...(restored?.cwd ? { cwd: restored.cwd } : {}),
    ...(restored?.version ? { version: restored.version } : {}),
    ...(restored?.gitBranch ? { gitBranch: restored.gitBranch } : {}),
    ...(restored?.model ? { model: restored.model } : {}),
  };
  // A file is a sub-agent transcript by its path, or when its FIRST message line is a sidechain.
  // Claude Code 1.0.x also wrote sub-agent turns inline in the main transcript (isSidechain on
  // those lines): they never make the file a sub-agent, and they do not decide its activity.
  // Resumed past the file's start, what its earlier lines decided is what the restored state says:
  // a file may begin with lines that decide none of it (summaries, mode and snapshot records).
  const messageRead = restored === undefined || restored.lastTurn !== 'none' || restored.userMessages + restored.assistantMessages > 0;
  let sidechainFile: boolean | undefined = kind.kind !== 'main' || restored?.isSidechain === true ? true : resumed && messageRead ? false : undefined;
  let desktop = restored?.source === 'desktop';
  let sawTimestamp = resumed && (restored === undefined || restored.createdAt > 0);
  let sawParent = resumed && (restored === undefined || restored.parentId !== '');
  return {
    sidechainFile: () => sidechainFile,
    version: () => known.version,
    of: (record, at) => {
      const patch: { -readonly [K in keyof SessionMetaPatch]: SessionMetaPatch[K] } = {};
      // cwd: the first one names the session's project (later `cd`s do not move it).
      if (record.cwd && known.cwd === undefined) patch.cwd = known.cwd = record.cwd;
      if (record.version && record.version !== known.version) patch.version = known.version = record.version;
      // Run from the desktop app (2.1.x writes it on every line; the macOS sidecar is the older sign).
      if (record.entrypoint === 'claude-desktop' && !desktop) {
        desktop = true;
        patch.source = 'desktop';
      }
      if (record.gitBranch && record.gitBranch !== known.gitBranch) patch.gitBranch = known.gitBranch = record.gitBranch;
      const model = record.message?.model;
      if (record.type === 'assistant' && model && model !== '<synthetic>' && model !== known.model) patch.model = known.model = model;
      if (!sawTimestamp && at > 0) {
        sawTimestamp = true;
        patch.createdAt = at;
      }
      // An `agent-*.jsonl` beside the transcripts (2.0.x) names its parent in every record's sessionId.
      if (kind.kind === 'legacy-agent' && !sawParent && record.sessionId && record.sessionId !== sessionId) {
        sawParent = true;
        patch.parentId = record.sessionId;
      }
      if (sidechainFile === undefined && (record.type === 'user' || record.type === 'assistant')) {
        sidechainFile = record.isSidechain === true;
        if (sidechainFile) {
          patch.isSidechain = true;
          if (record.sessionId && record.sessionId !== sessionId) patch.parentId = record.sessionId;
        }
      }
      return Object.keys(patch).length > 0 ? [{ type: 'meta', ...ref, at, patch }] : [];
    },
  };
};
