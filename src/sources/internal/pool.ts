import { yieldIfDue, type YieldIfDue } from '../../util/next-turn.js';

/** Runs `task` over `items` with at most `limit` in flight; resolves when all settled. */
export const runPool = async <T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>, slice: YieldIfDue = yieldIfDue): Promise<void> => {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await task(item);
      // Synchronous reads must not starve timers and watchers: every worker stops at the slice's end.
      await slice();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
};
