import {
  asyncScheduler,
  concat,
  defer,
  distinctUntilChanged,
  filter,
  interval,
  map,
  merge,
  mergeMap,
  of,
  share,
  tap,
  throttleTime,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import type { ApiStats, ServedSession, SessionsSnapshot, SessionStore, StoreChanges } from './store.js';

/**
 * What goes down an SSE connection, as pure streams of text frames so the timing (throttle,
 * heartbeat) is marble-tested; `sse.ts` only writes these frames to sockets. Frames are built
 * once and shared by every connection, from each session's cached JSON text.
 */

export interface SseTiming {
  /** `update` stream: at most one full update per this many ms (leading and trailing edge). */
  readonly throttleMs: number;
  /** A comment line this often keeps proxies and idle timeouts from closing the stream. */
  readonly heartbeatMs: number;
  /**
   * `?format=patch` stream: at most one patch per this many ms (leading and trailing edge). The
   * first change after a quiet spell goes out at once; a burst is folded into one patch.
   */
  readonly patchThrottleMs?: number;
}

const DEFAULT_PATCH_THROTTLE_MS = 50;

export const DEFAULT_SSE_TIMING: SseTiming = { throttleMs: 250, heartbeatMs: 15_000, patchThrottleMs: DEFAULT_PATCH_THROTTLE_MS };

/** An SSE comment: ignored by clients, but traffic for proxies. */
export const HEARTBEAT_FRAME = ': keep-alive\n\n';

const updateFrames = new WeakMap<SessionsSnapshot, string>();

/** The `update` event lazyagent's clients read: `{ sessions, stats }` (built once per snapshot from the cached JSON). */
export const updateFrame = (snapshot: SessionsSnapshot): string => {
  let frame = updateFrames.get(snapshot);
  if (frame === undefined) {
    frame = `event: update\ndata: {"sessions":${snapshot.summariesJson},"stats":${JSON.stringify(snapshot.stats)}}\n\n`;
    updateFrames.set(snapshot, frame);
  }
  return frame;
};

/** A shared `update` frame and the snapshot it shows. */
export interface SharedUpdate {
  readonly snapshot: SessionsSnapshot;
  readonly frame: string;
}

/**
 * Update frames shared by every connection: throttled, serialised once per snapshot (fan-out cost
 * does not grow with the JSON size), and only for a new snapshot (one is made only when
 * something listed changed).
 */
export const sharedUpdateFrames = (snapshot$: Observable<SessionsSnapshot>, timing: SseTiming, scheduler: SchedulerLike = asyncScheduler): Observable<SharedUpdate> =>
  snapshot$.pipe(
    throttleTime(timing.throttleMs, scheduler, { leading: true, trailing: true }),
    distinctUntilChanged(),
    map((snapshot) => ({ snapshot, frame: updateFrame(snapshot) })),
    share(),
  );

const heartbeats = (timing: SseTiming, scheduler: SchedulerLike): Observable<string> => interval(timing.heartbeatMs, scheduler).pipe(map(() => HEARTBEAT_FRAME));

/**
 * One connection: the snapshot at connect, then every shared update with a snapshot other than
 * the one this client last got, with heartbeats in between.
 */
export const connectionFrames = (
  snapshotNow: () => SessionsSnapshot,
  updates$: Observable<SharedUpdate>,
  timing: SseTiming,
  scheduler: SchedulerLike = asyncScheduler,
): Observable<string> =>
  merge(
    defer(() => {
      let last = snapshotNow();
      return concat(
        of(updateFrame(last)),
        updates$.pipe(
          filter((update) => update.snapshot !== last),
          map((update) => {
            last = update.snapshot;
            return update.frame;
          }),
        ),
      );
    }),
    heartbeats(timing, scheduler),
  );

/** `?format=patch`, first frame: every listed session and the stats. */
const snapshotFrame = (snapshot: SessionsSnapshot): string =>
  `event: snapshot\ndata: {"sessions":${snapshot.summariesJson},"stats":${JSON.stringify(snapshot.stats)}}\n\n`;

/** Sent once when the first discovery completes (to clients that connected while it ran). */
export const readyFrame = (stats: ApiStats): string => `event: ready\ndata: {"stats":${JSON.stringify(stats)}}\n\n`;

/** `?format=patch`, later frames: the sessions added or changed (their cached JSON text) and the ids that left. */
export const patchFrame = (changes: StoreChanges, stats: ApiStats): string =>
  `event: patch\ndata: {"changed":[${changes.changed.map((s) => s.json).join(',')}],"removed":${JSON.stringify(changes.removed)},"stats":${JSON.stringify(stats)}}\n\n`;

/** A patch frame built once for every connection, and the stats it carries. */
export interface SharedPatch {
  readonly frame: string;
  readonly stats: ApiStats;
}

/**
 * Patches shared by every `?format=patch` connection: the changes the store pushes with each new
 * snapshot (only the sessions that changed, serialised once per version), folded together while
 * the throttle holds them back, and none when neither a session nor the stats changed. A patch is
 * an upsert of whole summaries plus removals, so a client that got a snapshot between two patches
 * may apply the next one as it is.
 */
export const sharedPatches = (store: SessionStore, timing: SseTiming, scheduler: SchedulerLike = asyncScheduler): Observable<SharedPatch> =>
  defer(() => {
    let lastStats = JSON.stringify(store.current().stats);
    const changed = new Map<string, ServedSession>();
    const removed = new Set<string>();
    return store.updates$.pipe(
      tap(({ changes }) => {
        for (const id of changes.removed) {
          changed.delete(id);
          removed.add(id);
        }
        for (const served of changes.changed) {
          removed.delete(served.summary.session_id);
          changed.set(served.summary.session_id, served);
        }
      }),
      throttleTime(timing.patchThrottleMs ?? DEFAULT_PATCH_THROTTLE_MS, scheduler, { leading: true, trailing: true }),
      mergeMap(({ stats }): SharedPatch[] => {
        const statsJson = JSON.stringify(stats);
        if (changed.size === 0 && removed.size === 0 && statsJson === lastStats) return [];
        const changes = { changed: [...changed.values()], removed: [...removed] };
        changed.clear();
        removed.clear();
        lastStats = statsJson;
        return [{ frame: patchFrame(changes, stats), stats }];
      }),
    );
  }).pipe(share());

/**
 * One `?format=patch` connection: a `snapshot` at connect, then the shared patches, a `ready`
 * frame once when the first discovery completes (when it had not at connect), and heartbeats.
 */
export const patchConnectionFrames = (
  snapshotNow: () => SessionsSnapshot,
  patches$: Observable<SharedPatch>,
  timing: SseTiming,
  scheduler: SchedulerLike = asyncScheduler,
): Observable<string> =>
  merge(
    defer(() => {
      const first = snapshotNow();
      let ready = first.stats.ready;
      return concat(
        of(snapshotFrame(first)),
        patches$.pipe(
          mergeMap((patch) => {
            if (ready || !patch.stats.ready) return [patch.frame];
            ready = true;
            return [patch.frame, readyFrame(patch.stats)];
          }),
        ),
      );
    }),
    heartbeats(timing, scheduler),
  );
