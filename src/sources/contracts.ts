import type { Observable, SchedulerLike } from 'rxjs';
import type { Config } from '../config/effective.js';
import type { Logger } from '../core/contracts.js';
import type { Env } from '../core/env.js';
import type { SessionEvent } from '../core/session.js';

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
