import type { AgentKind } from '../core/agents.js';
import {
  ZERO_TOKENS,
  type SessionEvent,
  type SessionState,
  type TokenCounts,
  type ToolUse,
} from '../core/session.js';
import { MESSAGE_TEXT_MAX, PENDING_TOOLS_MAX, RECENT_MESSAGES_MAX, RECENT_TOOLS_MAX, USAGE_IDS_MAX } from './constants.js';

/** Events that belong to one session (everything except `ready` and `diagnostic`). */
export type SessionScopedEvent = Extract<SessionEvent, { readonly sessionId: string; readonly type: Exclude<SessionEvent['type'], 'ready' | 'diagnostic'> }>;

/** A session nobody has described yet: every field at its "unknown" value. */
export const emptySession = (agent: AgentKind, sessionId: string): SessionState => ({
  agent,
  sessionId,
  cwd: '',
  model: '',
  gitBranch: '',
  version: '',
  agentName: '',
  source: 'cli',
  isSidechain: false,
  parentId: '',
  resumeCommand: '',
  path: '',
  createdAt: 0,
  lastActivityAt: 0,
  lastTurn: 'none',
  lastTurnAt: 0,
  userMessages: 0,
  assistantMessages: 0,
  tokens: ZERO_TOKENS,
  usageByMessage: {},
  recordedCostUsd: 0,
  pendingTools: [],
  recentTools: [],
  recentMessages: [],
  lastFileWrite: '',
  lastFileWriteAt: 0,
  compactionStartedAt: 0,
  compactionEndedAt: 0,
  checkpoint: null,
});

const keepLast = <T>(items: readonly T[], max: number): readonly T[] => (items.length > max ? items.slice(items.length - max) : items);

const addTokens = (a: TokenCounts, b: TokenCounts, sign = 1): TokenCounts => ({
  input: a.input + sign * b.input,
  output: a.output + sign * b.output,
  cacheCreation: a.cacheCreation + sign * b.cacheCreation,
  cacheRead: a.cacheRead + sign * b.cacheRead,
});

/** Timestamps only move forward: a record with an unknown (0) or older time never rewinds the clock. */
const later = (current: number, at: number | undefined): number => (at !== undefined && at > current ? at : current);

const applyUsage = (s: SessionState, e: Extract<SessionEvent, { type: 'usage' }>): SessionState => {
  if (e.mode === 'total') {
    return { ...s, tokens: e.tokens, recordedCostUsd: e.costUsd ?? s.recordedCostUsd };
  }
  if (e.messageId === undefined) {
    return { ...s, tokens: addTokens(s.tokens, e.tokens), recordedCostUsd: s.recordedCostUsd + (e.costUsd ?? 0) };
  }
  // NOTE: one response written over several lines repeats its usage; the later line replaces the
  // earlier counts. Its recorded cost is counted once, from the first line that carries it.
  const id = e.messageId;
  const previous = s.usageByMessage[id];
  const tokens = addTokens(addTokens(s.tokens, previous ?? ZERO_TOKENS, -1), e.tokens);
  const recordedCostUsd = previous === undefined ? s.recordedCostUsd + (e.costUsd ?? 0) : s.recordedCostUsd;
  return { ...s, tokens, usageByMessage: rememberUsage(s.usageByMessage, id, e.tokens), recordedCostUsd };
};

/**
 * The usage map with `id` set as its newest entry, keeping the newest USAGE_IDS_MAX ids. Kept
 * small and copied with a plain loop: this runs for every usage record of a cold start.
 */
const rememberUsage = (
  byMessage: Readonly<Record<string, TokenCounts>>,
  id: string,
  tokens: TokenCounts,
): Record<string, TokenCounts> => {
  const ids = Object.keys(byMessage);
  // The common case: another line of the response just seen.
  if (ids[ids.length - 1] === id) return { ...byMessage, [id]: tokens };
  const kept = ids.filter((key) => key !== id);
  const next: Record<string, TokenCounts> = {};
  for (let i = Math.max(0, kept.length - (USAGE_IDS_MAX - 1)); i < kept.length; i += 1) {
    const key = kept[i] as string;
    next[key] = byMessage[key] as TokenCounts;
  }
  next[id] = tokens;
  return next;
};

/** Index of the pending call a result answers: by call id, else the oldest pending call. */
const pendingIndex = (pending: readonly ToolUse[], callId: string | undefined): number =>
  callId === undefined ? (pending.length > 0 ? 0 : -1) : pending.findIndex((tool) => tool.callId === callId);

const applyToolResult = (s: SessionState, e: Extract<SessionEvent, { type: 'tool_result' }>): SessionState => {
  const index = pendingIndex(s.pendingTools, e.callId);
  const answered = index === -1 ? undefined : s.pendingTools[index];
  const pendingTools = index === -1 ? s.pendingTools : s.pendingTools.filter((_, i) => i !== index);
  let recentTools = s.recentTools;
  if (answered) {
    // Mark the newest matching entry of the recent list as done (same call id, or the same object).
    const at = recentTools.findLastIndex((tool) => (answered.callId !== undefined ? tool.callId === answered.callId : tool === answered));
    if (at !== -1) recentTools = recentTools.map((tool, i) => (i === at ? { ...tool, done: true } : tool));
  }
  return { ...s, pendingTools, recentTools, lastTurn: 'tool_result', lastTurnAt: e.at, lastActivityAt: later(s.lastActivityAt, e.at) };
};

const applyMeta = (s: SessionState, e: Extract<SessionEvent, { type: 'meta' }>): SessionState => {
  const p = e.patch;
  return {
    ...s,
    cwd: p.cwd ?? s.cwd,
    model: p.model ?? s.model,
    gitBranch: p.gitBranch ?? s.gitBranch,
    version: p.version ?? s.version,
    agentName: p.agentName ?? s.agentName,
    source: p.source ?? s.source,
    isSidechain: p.isSidechain ?? s.isSidechain,
    parentId: p.parentId ?? s.parentId,
    resumeCommand: p.resumeCommand ?? s.resumeCommand,
    path: p.path ?? s.path,
    createdAt: p.createdAt ?? s.createdAt,
  };
};

/**
 * Pure fold of one session. Returns `undefined` when the session is gone (`removed`).
 * Every event but `checkpoint`/`restore` clears the checkpoint: the state then no longer equals
 * "everything up to that offset", so the discovery cache must not persist it with that offset.
 */
export const reduceSession = (prev: SessionState | undefined, e: SessionScopedEvent): SessionState | undefined => {
  if (e.type === 'removed') return undefined;
  if (e.type === 'restore') return e.state;
  const base = prev ?? emptySession(e.agent, e.sessionId);
  if (e.type === 'checkpoint') return { ...base, checkpoint: e.checkpoint };
  const s: SessionState = base.checkpoint === null ? base : { ...base, checkpoint: null };
  switch (e.type) {
    case 'reset':
      return emptySession(e.agent, e.sessionId);
    case 'meta':
      return applyMeta(s, e);
    case 'turn': {
      const counts = e.counts !== false;
      const text = e.text?.trim() ?? '';
      return {
        ...s,
        lastTurn: e.role,
        lastTurnAt: e.at,
        lastActivityAt: later(s.lastActivityAt, e.at),
        userMessages: s.userMessages + (counts && e.role === 'user' ? 1 : 0),
        assistantMessages: s.assistantMessages + (counts && e.role === 'assistant' ? 1 : 0),
        // A new prompt ends the previous turn: calls that never got a result were interrupted.
        pendingTools: e.role === 'user' ? [] : s.pendingTools,
        recentMessages:
          counts && text !== ''
            ? keepLast([...s.recentMessages, { role: e.role, text: text.slice(0, MESSAGE_TEXT_MAX), at: e.at }], RECENT_MESSAGES_MAX)
            : s.recentMessages,
      };
    }
    case 'tool_call': {
      const tool: ToolUse = { name: e.name, at: e.at, done: false, ...(e.callId === undefined ? {} : { callId: e.callId }) };
      return {
        ...s,
        lastTurn: 'tool_call',
        lastTurnAt: e.at,
        lastActivityAt: later(s.lastActivityAt, e.at),
        pendingTools: keepLast([...s.pendingTools, tool], PENDING_TOOLS_MAX),
        recentTools: keepLast([...s.recentTools, tool], RECENT_TOOLS_MAX),
        lastFileWrite: e.filePath ?? s.lastFileWrite,
        lastFileWriteAt: e.filePath === undefined ? s.lastFileWriteAt : e.at,
      };
    }
    case 'tool_result':
      return applyToolResult(s, e);
    case 'usage':
      return applyUsage(s, e);
    case 'compaction':
      return e.phase === 'start'
        ? { ...s, compactionStartedAt: e.at, compactionEndedAt: 0, lastActivityAt: later(s.lastActivityAt, e.at) }
        : { ...s, compactionEndedAt: e.at, lastActivityAt: later(s.lastActivityAt, e.at) };
    default:
      return e satisfies never;
  }
};
