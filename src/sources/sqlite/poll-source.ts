import { Observable, timer } from 'rxjs';
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
 * every `intervalMs`. Unsubscribing stops the timer and closes the connection. With
 * `watch: false` (one-shot commands) it polls once, emits `ready` and completes.
 */
export const pollDatabase = (ctx: Ctx | SourceCtx, options: PollSourceOptions): Observable<SessionEvent> =>
  new Observable<SessionEvent>((subscriber) => {
    const poller = createSqlitePoller(options);
    if ('watch' in ctx && ctx.watch === false) {
      const events = poller.poll(ctx.now());
      poller.close();
      for (const event of events) subscriber.next(event);
      subscriber.complete();
      return undefined;
    }
    const tick = timer(0, options.intervalMs ?? DEFAULT_POLL_INTERVAL_MS, ctx.scheduler).subscribe(() => {
      for (const event of poller.poll(ctx.now())) subscriber.next(event);
    });
    return () => {
      tick.unsubscribe();
      poller.close();
    };
  });
