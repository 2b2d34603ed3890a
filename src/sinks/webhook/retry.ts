import { asyncScheduler, retry, throwError, timer, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';

/** Waits before the 2nd, 3rd and 4th attempt: 4 attempts in all (docs/webhooks.md). */
export const BACKOFF_MS: readonly number[] = [1_000, 5_000, 30_000];

/**
 * Resubscribes to the source after a retryable error, waiting `delays[n - 1]` before retry n, so
 * `delays.length + 1` attempts in all; a non-retryable error (a 4xx) passes through at once.
 * The source must be cold and redo its work on subscribe (wrap a request in `defer`).
 *
 * @example defer(() => post(request)).pipe(retryWithBackoff(isRetryable, BACKOFF_MS, ctx.scheduler))
 */
export const retryWithBackoff = <T>(
  isRetryable: (error: unknown) => boolean,
  delays: readonly number[] = BACKOFF_MS,
  scheduler: SchedulerLike = asyncScheduler,
): MonoTypeOperatorFunction<T> =>
  retry<T>({
    count: delays.length,
    delay: (error: unknown, retryCount: number) =>
      isRetryable(error) ? timer(delays[retryCount - 1] ?? 0, scheduler) : throwError(() => error),
  });
