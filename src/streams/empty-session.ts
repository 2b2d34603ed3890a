import type { AgentKind } from '../core/agents.js';
import { NO_SUBAGENTS, ZERO_TOKENS, type SessionEvent, type SessionState } from '../core/session.js';
import { applyToDraft, closeDraft, openDraft } from './session-draft.js';

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
  subagents: NO_SUBAGENTS,
  inlineSubagents: NO_SUBAGENTS,
  pendingTools: [],
  recentTools: [],
  recentMessages: [],
  lastFileWrite: '',
  lastFileWriteAt: 0,
  compactionStartedAt: 0,
  compactionEndedAt: 0,
  checkpoint: null,
});

/**
 * Pure fold of one event into one session. Returns `undefined` when the session is gone (`removed`).
 * Every event but `checkpoint`/`restore` clears the checkpoint (see `applyToDraft`). A batch of
 * events is folded by `reduceSessions` with one draft per session instead, to the same result.
 */
export const reduceSession = (prev: SessionState | undefined, e: SessionScopedEvent): SessionState | undefined => {
  if (e.type === 'removed') return undefined;
  if (e.type === 'restore') return e.state;
  if (e.type === 'reset') return emptySession(e.agent, e.sessionId);
  const draft = openDraft(prev ?? emptySession(e.agent, e.sessionId));
  applyToDraft(draft, e);
  return closeDraft(draft);
};
