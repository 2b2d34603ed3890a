import { asyncScheduler, filter, Subscription, take, type Observable, type SchedulerLike } from 'rxjs';
import type { SessionsState } from '../core/contracts.js';

/** How often the quiet is checked after the first discovery. */
export const SETTLE_CHECK_MS = 2_000;
/** Quiet means this share of one core or less over the last check (the cache write after a cold start is not). */
const QUIET_CPU_SHARE = 0.1;
/**
 * Compact after this long of quiet: V8 judges its allocation rate over the last 5 s, and only a
 * collection at a low rate shrinks the young generation.
 */
export const QUIET_FOR_MS = 6_000;
/** Compact at the latest this long after the first discovery, quiet or not. */
export const SETTLE_MAX_MS = 60_000;

export interface CompactWhenSettledOptions {
  readonly compact: () => void;
  /** CPU time this process used so far, in ms (process.cpuUsage in production). */
  readonly cpuMs: () => number;
  readonly scheduler?: SchedulerLike;
}

/** CPU time (user + system) of this process so far, in ms. */
export const processCpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Once the first discovery has completed and the process has gone quiet, compacts the heap once
 * (see `compactHeap`): a long-running monitor then idles on what it holds, not on what its first
 * pass allocated. Quiet is checked rather than assumed: after a cold start the discovery cache
 * and the search index still write for a few seconds, and a collection during that work would
 * leave its garbage behind and see a high allocation rate (which keeps the young generation big).
 */
export const compactWhenSettled = (state$: Observable<SessionsState>, options: CompactWhenSettledOptions): Subscription => {
  const scheduler = options.scheduler ?? asyncScheduler;
  const cpuMs = options.cpuMs;
  const subscription = new Subscription();
  // NOTE: state$ replays its latest state, so `ready` may arrive during this subscribe call.
  subscription.add(
    state$.pipe(
      filter((state) => state.ready),
      take(1),
    ).subscribe(() => {
      const readyAt = scheduler.now();
      let lastCpu = cpuMs();
      let lastAt = readyAt;
      let quietFor = 0;
      const check = (): void => {
        const now = scheduler.now();
        const cpu = cpuMs();
        quietFor = cpu - lastCpu <= (now - lastAt) * QUIET_CPU_SHARE ? quietFor + (now - lastAt) : 0;
        lastCpu = cpu;
        lastAt = now;
        if (quietFor >= QUIET_FOR_MS || now - readyAt >= SETTLE_MAX_MS) options.compact();
        else subscription.add(scheduler.schedule(check, SETTLE_CHECK_MS));
      };
      subscription.add(scheduler.schedule(check, SETTLE_CHECK_MS));
    }),
  );
  return subscription;
};
