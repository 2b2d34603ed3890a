import { asyncScheduler, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { SessionsState, Teardown } from '../../core/contracts.js';
import type { SessionState } from '../../core/session.js';
import type { CachedFile, DiscoveryCache } from './cache.js';

const PERSIST_EVERY_MS = 5_000;

/**
 * Keeps the discovery cache in step with the folded state: every `everyMs` (and once more on
 * teardown) it writes, in one transaction, the sessions whose state changed and sits exactly at a
 * checkpoint, and deletes the rows of sessions that are gone. Sessions between checkpoints keep
 * their previous row, which is still a valid (older) resume point.
 *
 * Wire it in the composition root: `const stop = persistCache(state$, cache, ctx.scheduler)`.
 */
export const persistCache = (
  state$: Observable<SessionsState>,
  cache: DiscoveryCache,
  scheduler: SchedulerLike = asyncScheduler,
  everyMs = PERSIST_EVERY_MS,
): Teardown => createPersister(state$, cache, scheduler, everyMs).stop;

export interface Persister {
  /** Stops following the state and writes what changed a last time. */
  readonly stop: Teardown;
  /**
   * Writes what changed, then pairs every session whose row holds exactly its current state with
   * a lazy twin of it (`DiscoveryCache.lazyTwin`): for `Pipeline.swapStates`, after a first
   * discovery without a cache, so the monitor holds the details in the cache, as after a warm start.
   */
  readonly lazyTwins: () => { readonly from: SessionState; readonly to: SessionState }[];
}

/** `persistCache` with its twins exposed (the composition root releases details with them). */
export const createPersister = (
  state$: Observable<SessionsState>,
  cache: DiscoveryCache,
  scheduler: SchedulerLike = asyncScheduler,
  everyMs = PERSIST_EVERY_MS,
): Persister => {
  let latest: SessionsState | undefined;
  let dirty = false;
  // Per file: the state object last written, and the session key that owns the file.
  const written = new Map<string, SessionState>();

  const flush = (): void => {
    if (!dirty || !latest) return;
    dirty = false;
    const upserts: CachedFile[] = [];
    const live = new Set<string>();
    for (const state of latest.sessions.values()) {
      const cp = state.checkpoint;
      if (!cp) {
        if (state.path) live.add(state.path);
        continue;
      }
      live.add(cp.path);
      if (written.get(cp.path) === state) continue;
      written.set(cp.path, state);
      // Restored and untouched: the row already holds exactly this.
      if (cache.isStored(state)) continue;
      upserts.push({ path: cp.path, agent: state.agent, sessionId: state.sessionId, offset: cp.offset, size: cp.size, mtimeMs: cp.mtimeMs, state });
    }
    const deletes = [...written.keys()].filter((p) => !live.has(p));
    for (const p of deletes) written.delete(p);
    if (upserts.length > 0 || deletes.length > 0) cache.write(upserts, deletes);
  };

  const subscription: Subscription = state$.subscribe((state) => {
    latest = state;
    dirty = true;
  });
  const timer = scheduler.schedule(function tick(this: { schedule: (state?: undefined, delay?: number) => void }) {
    flush();
    this.schedule(undefined, everyMs);
  }, everyMs);

  const lazyTwins = (): { from: SessionState; to: SessionState }[] => {
    flush();
    if (!latest) return [];
    const twins: { from: SessionState; to: SessionState }[] = [];
    for (const state of latest.sessions.values()) {
      const cp = state.checkpoint;
      // Only what this persister wrote from this very state (a restored one is lazy already).
      if (!cp || written.get(cp.path) !== state || cache.isStored(state)) continue;
      const twin = cache.lazyTwin(state, cp);
      if (!twin) continue;
      written.set(cp.path, twin);
      twins.push({ from: state, to: twin });
    }
    cache.releasePages();
    return twins;
  };

  return {
    stop: () => {
      timer.unsubscribe();
      subscription.unsubscribe();
      flush();
    },
    lazyTwins,
  };
};
