import type { Observable, SchedulerLike } from 'rxjs';
import type { Config } from '../config/effective.js';
import type { Env } from '../config/paths.js';
import type { AgentKind } from './agents.js';
import type { SessionEvent, SessionState, SessionKey, Transition } from './session.js';

/** Diagnostics go through this; sinks decide where (stderr, TUI status line, API). */
export interface Logger {
  readonly info: (message: string) => void;
  readonly warn: (message: string) => void;
  readonly error: (message: string) => void;
}

/** Everything a component may touch of the outside world, injected (tests pass their own). */
export interface Ctx {
  readonly config: Config;
  readonly env: Env;
  readonly scheduler: SchedulerLike;
  /** `() => scheduler.now()`: virtual under TestScheduler. */
  readonly now: () => number;
  readonly log: Logger;
  /** `process.platform` as a value, so path logic is testable for macOS on Linux. */
  readonly platform: NodeJS.Platform;
}

/** Cold; one per agent; unsubscribing closes every watcher, timer and database handle. */
export type Source = (ctx: Ctx) => Observable<SessionEvent>;

export type SourceRegistry = Readonly<Record<AgentKind, Source>>;

/** The folded state of every session, keyed by `sessionKey`. */
export interface SessionsState {
  readonly sessions: ReadonlyMap<SessionKey, SessionState>;
  /** Diagnostics counted per agent and code (junk lines, locked databases...). */
  readonly diagnostics: Readonly<Record<string, number>>;
  /** False until every enabled source has finished its first discovery pass. */
  readonly ready: boolean;
}

export type Teardown = () => void | Promise<void>;

/** A sink subscribes to the shared streams and owns its errors and retries. */
export type Sink = (streams: { readonly state$: Observable<SessionsState>; readonly transitions$: Observable<Transition> }, ctx: Ctx) => Teardown;
