import { asyncScheduler, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { SessionsState, Teardown } from '../../core/contracts.js';
import type { SessionState } from '../../core/session.js';
import type { CachedFile, DiscoveryCache } from './cache.js';

export const PERSIST_EVERY_MS = 5_000;

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
): Teardown => {
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

  return () => {
    timer.unsubscribe();
    subscription.unsubscribe();
    flush();
  };
};
