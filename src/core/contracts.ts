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
  /**
   * Files of the first discovery pass read so far, of those found, summed over the sources that
   * report it (the file sources); undefined before any did.
   */
  readonly history?: HistoryProgress;
}

/** How much of the history on disk the first discovery pass has read. */
export interface HistoryProgress {
  readonly read: number;
  readonly total: number;
}

export type Teardown = () => void | Promise<void>;
