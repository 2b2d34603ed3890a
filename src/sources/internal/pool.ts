import { nextTurn } from '../../util/next-turn.js';

/** Items handled between two event-loop turns: synchronous reads must not starve timers and watchers. */
const YIELD_EVERY = 32;


/** Runs `task` over `items` with at most `limit` in flight; resolves when all settled. */
export const runPool = async <T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> => {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await task(item);
      if (next % YIELD_EVERY === 0) await nextTurn();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
};
