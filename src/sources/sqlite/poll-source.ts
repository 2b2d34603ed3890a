import { Observable, type SchedulerAction } from 'rxjs';
import type { Ctx } from '../../core/contracts.js';
import type { SessionEvent } from '../../core/session.js';
import type { SourceCtx } from '../internal/options.js';
import { createSqlitePoller, type PollerOptions } from './poller.js';

/** Agents write their databases continuously; 3 s matches what users of lazyagent expect. */
export const DEFAULT_POLL_INTERVAL_MS = 3_000;

export interface PollSourceOptions extends PollerOptions {
  readonly intervalMs?: number;
}

/**
 * A cold observable polling one database on `ctx.scheduler`: the first poll runs at once, then one
 * every `intervalMs` (at once while a large replay is still delivered in batches). Unsubscribing
 * stops the timer and closes the connection. With `watch: false` (one-shot commands) it reads
 * everything, emits `ready` and completes.
 */
export const pollDatabase = (ctx: Ctx | SourceCtx, options: PollSourceOptions): Observable<SessionEvent> =>
  new Observable<SessionEvent>((subscriber) => {
    const poller = createSqlitePoller(options);
    if ('watch' in ctx && ctx.watch === false) {
      do {
        for (const event of poller.poll(ctx.now())) subscriber.next(event);
      } while (poller.hasMore() && !subscriber.closed);
      poller.close();
      subscriber.complete();
      return undefined;
    }
    const interval = options.intervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    const tick = ctx.scheduler.schedule(function (this: SchedulerAction<undefined>) {
      for (const event of poller.poll(ctx.now())) subscriber.next(event);
      // A replay cut short by its budget continues at once (after other work had its turn).
      if (!subscriber.closed) this.schedule(undefined, poller.hasMore() ? 0 : interval);
    }, 0);
    return () => {
      tick.unsubscribe();
      poller.close();
    };
  });
