import type { SessionEvent, SessionState } from '../core/session.js';
import { emptySession } from './empty-session.js';
import { applyToDraft, closeDraft, openDraft } from './session-draft.js';

/** Events that belong to one session (everything except `ready` and `diagnostic`). */
export type SessionScopedEvent = Extract<SessionEvent, { readonly sessionId: string; readonly type: Exclude<SessionEvent['type'], 'ready' | 'diagnostic'> }>;

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
