import { asyncScheduler, defer, filter, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';
import type { Transition } from '../../core/session.js';

export const COALESCE_WINDOW_MS = 2_000;

const transitionKey = (t: Transition): string => `${t.agent}\u0000${t.sessionId}\u0000${t.from}\u0000${t.to}`;

/**
 * Drops a transition when the same session made the same from/to change less than `windowMs`
 * ago (a flapping record or a source re-reading a file must not notify a receiver twice). The
 * window is measured from the last transition let through, on `scheduler` time.
 *
 * @example transitions$.pipe(coalesceDuplicates(2_000, ctx.scheduler))
 */
export const coalesceDuplicates =
  (windowMs: number = COALESCE_WINDOW_MS, scheduler: SchedulerLike = asyncScheduler): MonoTypeOperatorFunction<Transition> =>
  (source) =>
    defer(() => {
      // Per subscription: the time each key last went through, oldest first (a key is only set
      // when absent, so insertion order is time order). Expired entries are pruned from the front,
      // so the map holds the keys of the last `windowMs` and each transition costs O(1) amortised.
      const lastSent = new Map<string, number>();
      return source.pipe(
        filter((transition) => {
          const now = scheduler.now();
          for (const [key, at] of lastSent) {
            if (now - at < windowMs) break;
            lastSent.delete(key);
          }
          const key = transitionKey(transition);
          if (lastSent.has(key)) return false;
          lastSent.set(key, now);
          return true;
        }),
      );
    });
