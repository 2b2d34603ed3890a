import type { Observable, SchedulerLike } from 'rxjs';
import type { Config } from '../config/effective.js';
import type { AgentKind } from '../core/agents.js';
import type { Logger, SessionsState, Teardown } from '../core/contracts.js';
import type { Env } from '../core/env.js';
import type { DiagnosticEvent, SessionEvent, Transition } from '../core/session.js';
import type { PipelineFrame } from './frames.js';
import type { Listing } from './listing.js';

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

/** The pipeline's shared streams, as every sink gets them. */
export interface SinkStreams {
  /** Every frame of the fold (state, activities, what it touched), after `listing` has it. */
  readonly frame$: Observable<PipelineFrame>;
  /** What the config's window lists: the one read model (streams/listing.ts). */
  readonly listing: Listing;
  readonly state$: Observable<SessionsState>;
  readonly transitions$: Observable<Transition>;
  readonly diagnostics$: Observable<DiagnosticEvent>;
}

/** A sink subscribes to the shared streams and owns its errors and retries. */
export type Sink = (streams: SinkStreams, ctx: Ctx) => Teardown;
