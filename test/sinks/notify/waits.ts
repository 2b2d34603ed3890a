import type { SessionsState } from '../../../src/core/contracts.js';
import { sessionKey, type SessionState } from '../../../src/core/session.js';
import { emptySession } from '../../../src/streams/empty-session.js';

/** A claude session whose last record is `turn` at `at` (an answer: it waits for its user). */
export const session = (sessionId: string, turn: SessionState['lastTurn'], at: number, over: Partial<SessionState> = {}): SessionState => ({
  ...emptySession('claude', sessionId),
  cwd: '/p/one',
  lastTurn: turn,
  lastTurnAt: at,
  lastActivityAt: at,
  ...over,
});

/** The fold's state holding `sessions` (ready unless told). */
export const stateOf = (sessions: readonly SessionState[], ready = true): SessionsState => ({
  sessions: new Map(sessions.map((s) => [sessionKey(s), s])),
  diagnostics: {},
  ready,
});
