import type { SchedulerLike, Subscription } from 'rxjs';

/**
 * Runs `task` now and once more `delayMs` later, the later run kept in `timers` under `key` (a
 * repeat before it fires moves it back). Watch events coalesce and directories appear before their
 * watch does: the second look finds a write the first one was too early for.
 */
export const nowAndAgainLater = (timers: Map<string, Subscription>, key: string, scheduler: SchedulerLike, delayMs: number, task: () => void): void => {
  task();
  timers.get(key)?.unsubscribe();
  timers.set(
    key,
    scheduler.schedule(() => {
      timers.delete(key);
      task();
    }, delayMs),
  );
};
