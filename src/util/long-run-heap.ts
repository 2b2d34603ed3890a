import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8 settings of the long-running modes (TUI, --api, --gui): a monitor runs all day, so what it
 * holds while idle matters more than the last percent of its first discovery's speed. One-shot
 * commands keep V8's defaults.
 */

/**
 * Keeps the young generation at its initial size (two 1 MiB semi-spaces) instead of letting it
 * grow to two 16 MiB ones, which a process keeps (and keeps resident) for the rest of its life
 * once a burst of allocation has grown them. `--max-semi-space-size` would need a re-exec (it is
 * read when the heap is made); the growth factor is read at each growth, so it works from here.
 * Call it before the monitor's modules load. Measured at 10k sessions: no difference in the time
 * of the first discovery that the noise of this machine could show.
 */
export const keepYoungGenerationSmall = (): void => {
  setFlagsFromString('--semi-space-growth-factor=1');
};

/** V8's `gc`, which is not reachable without `--expose-gc` at start: the flag applies to contexts made after it is set, so a new context hands the function out. */
const exposedGc = (): (() => void) => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  setFlagsFromString('--no-expose-gc');
  return gc;
};

/**
 * One full collection, not compacting, for a one-shot command between a cold discovery and its
 * output. Why: a discovery leaves most of what it allocated as garbage in the old generation, and
 * what the listing allocates next then grows the heap past it: the collection lowers the peak RSS
 * for a small part of the run's time (docs/performance.md).
 */
export const collectGarbage = (): void => exposedGc()();

/**
 * One full, compacting garbage collection.
 *
 * Why: the first discovery allocates hundreds of MiB that die at once, and leaves an old
 * generation of half-empty pages that V8's memory reducer did not give back within a minute of
 * idling (about twice the live size stayed reserved). A collection that
 * compacts every page moves the live objects together and releases the rest.
 *
 * Costs one pause, once (docs/performance.md).
 */
export const compactHeap = (): void => {
  const gc = exposedGc();
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
};
