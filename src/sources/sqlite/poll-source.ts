import { Observable, type SchedulerAction, type Subscription } from 'rxjs';
import type { Ctx } from '../contracts.js';
import type { SessionEvent } from '../../core/session.js';
import type { SourceCtx } from '../internal/options.js';
import { createSqlitePoller, type PollerOptions } from './poller.js';
import { watchDatabase } from './watch-db.js';

/** Agents write their databases continuously; a change is also seen at once through the watch, and this poll is the fallback. */
export const DEFAULT_POLL_INTERVAL_MS = 3_000;

/** A burst of writes (a message and its parts) is read once, a few ms after it settles. */
const WATCH_SETTLE_MS = 15;

export interface PollSourceOptions extends PollerOptions {
  readonly intervalMs?: number;
  /** Poll at once when the database or its WAL changes (default true while watching). */
  readonly watchFiles?: boolean;
}

/**
 * A cold observable polling one database on `ctx.scheduler`: the first poll runs at once, then one
 * every `intervalMs` (at once while a large replay is still delivered in batches). Unsubscribing
 * stops the timer and closes the connection. With `watch: false` (one-shot commands) it reads
 * everything, emits `ready` and completes.
 */
export const pollDatabase = (ctx: Ctx | SourceCtx, options: PollSourceOptions): Observable<SessionEvent> =>
  new Observable<SessionEvent>((subscriber) => {
    const cache = 'cache' in ctx ? ctx.cache : undefined;
    const readSince = 'readSince' in ctx ? ctx.readSince : undefined;
    const poller = createSqlitePoller({
      ...options,
      ...(cache && options.cache === undefined ? { cache } : {}),
      ...(readSince !== undefined && options.readSince === undefined ? { readSince } : {}),
    });
    if ('watch' in ctx && ctx.watch === false) {
      do {
        for (const event of poller.poll(ctx.now())) subscriber.next(event);
      } while (poller.hasMore() && !subscriber.closed);
      poller.close();
      subscriber.complete();
      return undefined;
    }
    const interval = options.intervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    const poll = (): void => {
      for (const event of poller.poll(ctx.now())) subscriber.next(event);
    };
    const tick = ctx.scheduler.schedule(function (this: SchedulerAction<undefined>) {
      poll();
      // A replay cut short by its budget continues at once (after other work had its turn).
      if (!subscriber.closed) this.schedule(undefined, poller.hasMore() ? 0 : interval);
    }, 0);
    // Every commit is read, not only the state every `interval` shows: a tool that starts and
    // ends between two periodic polls would otherwise never be seen (nor its transitions).
    let soon: Subscription | undefined;
    const unwatch =
      options.watchFiles === false
        ? undefined
        : watchDatabase(options.dbPath, () => {
            if (soon || subscriber.closed) return;
            soon = ctx.scheduler.schedule(() => {
              soon = undefined;
              poll();
            }, WATCH_SETTLE_MS);
          });
    return () => {
      tick.unsubscribe();
      soon?.unsubscribe();
      unwatch?.();
      poller.close();
    };
  });
