import type { SessionState, SessionKey } from './session.js';

/** Diagnostics go through this; sinks decide where (stderr, TUI status line, API). */
export interface Logger {
  readonly info: (message: string) => void;
  readonly warn: (message: string) => void;
  readonly error: (message: string) => void;
}

/** The folded state of every session, keyed by `sessionKey`. */
export interface SessionsState {
  readonly sessions: ReadonlyMap<SessionKey, SessionState>;
  /** Diagnostics counted per agent and code (junk lines, locked databases...). */
  readonly diagnostics: Readonly<Record<string, number>>;
  /** False until every enabled source has finished its first discovery pass. */
  readonly ready: boolean;
}

export type Teardown = () => void | Promise<void>;
