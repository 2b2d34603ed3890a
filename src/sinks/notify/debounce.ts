import { asyncScheduler, Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import type { AgentKind } from '../../core/agents.js';
import type { Transition } from '../../core/session.js';

/** A session has been waiting for input for `waitedMs`: worth one desktop notification. */
export interface WaitingAlert {
  readonly agent: AgentKind;
  readonly sessionId: string;
  readonly cwd: string;
  readonly waitedMs: number;
}

/**
 * Emits one alert when a session stays in `waiting` for `ms`. Leaving `waiting` before then
 * cancels it; a second "to waiting" inside the same episode (a duplicate transition) changes
 * nothing, so each waiting episode alerts at most once. Sub-agent sessions never alert. Only the
 * sessions currently waiting are remembered.
 *
 * @example transitions$.pipe(notifyAfterWaiting(30_000, ctx.scheduler))
 */
export const notifyAfterWaiting =
  (ms: number, scheduler: SchedulerLike = asyncScheduler): OperatorFunction<Transition, WaitingAlert> =>
  (source) =>
    new Observable<WaitingAlert>((subscriber) => {
      // Session key -> its pending timer, or null once this episode has alerted.
      const episodes = new Map<string, Subscription | null>();
      const upstream = source.subscribe({
        next: (transition) => {
          if (transition.isSidechain) return;
          const key = `${transition.agent}:${transition.sessionId}`;
          if (transition.to !== 'waiting') {
            episodes.get(key)?.unsubscribe();
            episodes.delete(key);
            return;
          }
          if (episodes.has(key)) return;
          const { agent, sessionId, cwd } = transition;
          episodes.set(
            key,
            scheduler.schedule(() => {
              episodes.set(key, null);
              subscriber.next({ agent, sessionId, cwd, waitedMs: ms });
            }, ms),
          );
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        upstream.unsubscribe();
        for (const pending of episodes.values()) pending?.unsubscribe();
        episodes.clear();
      };
    });
