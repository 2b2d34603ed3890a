import { yieldIfDue, type YieldIfDue } from '../../util/next-turn.js';

/**
 * The reads of first discovery passes, newest file first across every source that shares the
 * queue: the sessions written last are the ones a user looks for, and they reach the fold (and so
 * every interface) while the older history is still being read. Live changes do not wait here:
 * a source syncs a file it is told of at once.
 */
export interface ReadQueue {
  /** Runs `task` once every task queued with a later `mtimeMs` has started; at most `limit` run at once. */
  readonly run: (mtimeMs: number, task: () => Promise<void>) => Promise<void>;
}

interface Entry {
  readonly mtimeMs: number;
  readonly task: () => Promise<void>;
  readonly done: (error?: unknown) => void;
}

/** A binary max-heap by mtime: thousands of files are queued at once by a pass. */
const createHeap = (): { push: (entry: Entry) => void; pop: () => Entry | undefined; size: () => number } => {
  const items: Entry[] = [];
  const above = (i: number, j: number): boolean => (items[i] as Entry).mtimeMs > (items[j] as Entry).mtimeMs;
  const swap = (i: number, j: number): void => {
    const held = items[i] as Entry;
    items[i] = items[j] as Entry;
    items[j] = held;
  };
  return {
    push: (entry) => {
      items.push(entry);
      for (let i = items.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (!above(i, parent)) break;
        swap(i, parent);
        i = parent;
      }
    },
    pop: () => {
      const top = items[0];
      const last = items.pop();
      if (top === undefined || last === undefined || items.length === 0) return top;
      items[0] = last;
      for (let i = 0; ; ) {
        const left = 2 * i + 1;
        const right = left + 1;
        let largest = i;
        if (left < items.length && above(left, largest)) largest = left;
        if (right < items.length && above(right, largest)) largest = right;
        if (largest === i) break;
        swap(i, largest);
        i = largest;
      }
      return top;
    },
    size: () => items.length,
  };
};

/**
 * A queue that starts tasks newest first. Tasks queued in one synchronous stretch (a pass queues
 * all its files in one loop) are ordered among themselves before any starts: the start waits for
 * a microtask. Each task that ends stops at the time slice's end (next-turn.ts) before the next
 * starts, as the pool did: timers, watchers and requests run between reads.
 */
export const createReadQueue = (limit: number, slice: YieldIfDue = yieldIfDue): ReadQueue => {
  const waiting = createHeap();
  let running = 0;
  let pumping = false;
  const startNext = (): void => {
    while (running < limit && waiting.size() > 0) {
      const entry = waiting.pop() as Entry;
      running += 1;
      void entry
        .task()
        .then(
          () => entry.done(),
          (error: unknown) => entry.done(error ?? new Error('read failed')),
        )
        .then(() => slice())
        .then(() => {
          running -= 1;
          startNext();
        });
    }
  };
  const pump = (): void => {
    if (pumping) return;
    pumping = true;
    queueMicrotask(() => {
      pumping = false;
      startNext();
    });
  };
  return {
    run: (mtimeMs, task) =>
      new Promise<void>((resolve, reject) => {
        waiting.push({ mtimeMs, task, done: (error) => (error === undefined ? resolve() : reject(error as Error)) });
        pump();
      }),
  };
};

/** Files read at once by first passes (each is read whole in time slices; more in flight only interleave). */
const READS_AT_ONCE = 64;

/** The process's queue, shared by every file source: newest first across agents too. */
export const firstPassReads: ReadQueue = createReadQueue(READS_AT_ONCE);
