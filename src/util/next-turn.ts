import { performance } from 'node:perf_hooks';

/** Resolves on the event loop's next turn: long synchronous work yields with it so timers and watchers keep flowing. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Longest stretch of synchronous work between two event-loop turns, in ms. */
const SLICE_MS = 10;

export type YieldIfDue = () => Promise<void> | undefined;

/**
 * Cooperative time slicing for loops of synchronous work (stats, directory listings, whole-file
 * reads): the function it returns resolves at once while the current slice is shorter than
 * `sliceMs`, else on the next event-loop turn. Every caller shares one slice and one turn, so
 * concurrent loops (a pool's workers, several sources) all stop at the same point and the loop
 * really turns: timers (the fold's batch flush), watchers and HTTP requests run between slices.
 * A per-loop count could not do that: a worker that yielded alone left the others running on
 * microtasks, and a cold start ran as a few long stretches, its events folded in a few huge
 * batches (each promoted to the old generation first).
 */
export const createTimeSlicer = (now: () => number, sliceMs: number): YieldIfDue => {
  let sliceStartedAt = now();
  let turn: Promise<void> | undefined;
  return () => {
    if (turn !== undefined) return turn;
    if (now() - sliceStartedAt < sliceMs) return undefined;
    turn = new Promise((resolve) =>
      setImmediate(() => {
        turn = undefined;
        sliceStartedAt = now();
        resolve();
      }),
    );
    return turn;
  };
};

/** The process's one slicer (see createTimeSlicer). */
export const yieldIfDue: YieldIfDue = createTimeSlicer(() => performance.now(), SLICE_MS);
