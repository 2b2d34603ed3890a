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
  scan,
  share,
  throttleTime,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import { summaryJsonOf, type SessionsSnapshot } from './store.js';

/**
 * What goes down an SSE connection, as pure streams of text frames so the timing (throttle,
 * heartbeat) is marble-tested; `sse.ts` only writes these frames to sockets.
 */

export interface SseTiming {
  /** At most one update per this many ms per connection (leading and trailing edge). */
  readonly throttleMs: number;
  /** A comment line this often keeps proxies and idle timeouts from closing the stream. */
  readonly heartbeatMs: number;
}

export const DEFAULT_SSE_TIMING: SseTiming = { throttleMs: 250, heartbeatMs: 15_000 };

/** The `update` event lazyagent's clients read: `{ sessions, stats }` (built from each session's cached JSON). */
export const updateFrame = (snapshot: SessionsSnapshot): string =>
  `event: update\ndata: {"sessions":${snapshot.summariesJson},"stats":${JSON.stringify(snapshot.stats)}}\n\n`;

/** An SSE comment: ignored by clients, but traffic for proxies. */
export const HEARTBEAT_FRAME = ': keep-alive\n\n';

/**
 * Update frames shared by every connection: throttled, serialised once per change (fan-out cost
 * does not grow with the JSON size), and only when the content changed (the pipeline re-emits on
 * every tick even when nothing visible moved).
 */
export const sharedUpdateFrames = (snapshot$: Observable<SessionsSnapshot>, timing: SseTiming, scheduler: SchedulerLike = asyncScheduler): Observable<string> =>
  snapshot$.pipe(
    throttleTime(timing.throttleMs, scheduler, { leading: true, trailing: true }),
    map(updateFrame),
    distinctUntilChanged(),
    share(),
  );

/**
 * One connection: the snapshot at connect, then every shared update that differs from what this
 * client last got, with heartbeats in between.
 */
export const connectionFrames = (
  snapshotNow: () => SessionsSnapshot,
  updates$: Observable<string>,
  timing: SseTiming,
  scheduler: SchedulerLike = asyncScheduler,
): Observable<string> =>
  merge(
    concat(of(null).pipe(map(() => updateFrame(snapshotNow()))), updates$).pipe(distinctUntilChanged()),
    interval(timing.heartbeatMs, scheduler).pipe(map(() => HEARTBEAT_FRAME)),
  );

/** `?format=patch`, first frame: every listed session and the stats. */
export const snapshotFrame = (snapshot: SessionsSnapshot): string =>
  `event: snapshot\ndata: {"sessions":${snapshot.summariesJson},"stats":${JSON.stringify(snapshot.stats)}}\n\n`;

/** Sent once when the first discovery completes (clients that connected while it ran). */
export const readyFrame = (snapshot: SessionsSnapshot): string => `event: ready\ndata: {"stats":${JSON.stringify(snapshot.stats)}}\n\n`;

const keyOf = (s: { readonly agent: string; readonly session_id: string }): string => `${s.agent}:${s.session_id}`;

/**
 * `?format=patch`, later frames: only the sessions whose summary changed (or appeared) since
 * `prev`, and the ids that left; `undefined` when nothing did. Unchanged sessions keep their
 * cached JSON text, so the comparison is mostly by reference.
 */
export const patchFrame = (prev: SessionsSnapshot, next: SessionsSnapshot): string | undefined => {
  const before = new Map<string, string>();
  prev.sessions.forEach((session) => before.set(keyOf(session), summaryJsonOf(session)));
  const changed: string[] = [];
  for (const session of next.sessions) {
    const key = keyOf(session);
    const json = summaryJsonOf(session);
    if (before.get(key) !== json) changed.push(json);
    before.delete(key);
  }
  const removed = [...before.keys()].map((key) => key.slice(key.indexOf(':') + 1));
  const stats = JSON.stringify(next.stats);
  if (changed.length === 0 && removed.length === 0 && stats === JSON.stringify(prev.stats)) return undefined;
  return `event: patch\ndata: {"changed":[${changed.join(',')}],"removed":${JSON.stringify(removed)},"stats":${stats}}\n\n`;
};

interface SharedPatch {
  readonly prev: SessionsSnapshot;
  readonly next: SessionsSnapshot;
  readonly frame: string | undefined;
}

/** Throttled snapshots paired with their patch from the one before, computed once for every connection. */
export const sharedPatches = (snapshot$: Observable<SessionsSnapshot>, timing: SseTiming, scheduler: SchedulerLike = asyncScheduler): Observable<SharedPatch> =>
  snapshot$.pipe(
    throttleTime(timing.throttleMs, scheduler, { leading: true, trailing: true }),
    scan<SessionsSnapshot, SharedPatch | undefined>((last, next) => (last ? { prev: last.next, next, frame: patchFrame(last.next, next) } : { prev: next, next, frame: undefined }), undefined),
    filter((patch): patch is SharedPatch => patch !== undefined && patch.prev !== patch.next),
    share(),
  );

/**
 * One `?format=patch` connection: a `snapshot` at connect, then `patch` frames relative to what
 * THIS client last got (the shared patch when it is based on the same snapshot, else its own),
 * a `ready` frame when the first discovery completes, and heartbeats.
 */
export const patchConnectionFrames = (
  snapshotNow: () => SessionsSnapshot,
  patches$: Observable<SharedPatch>,
  timing: SseTiming,
  scheduler: SchedulerLike = asyncScheduler,
): Observable<string> =>
  merge(
    defer(() => {
      let last = snapshotNow();
      return concat(
        of(snapshotFrame(last)),
        patches$.pipe(
          mergeMap(({ prev, next, frame }) => {
            const patch = prev === last ? frame : patchFrame(last, next);
            const becameReady = !last.stats.ready && next.stats.ready;
            last = next;
            return [...(patch ? [patch] : []), ...(becameReady ? [readyFrame(next)] : [])];
          }),
        ),
      );
    }),
    interval(timing.heartbeatMs, scheduler).pipe(map(() => HEARTBEAT_FRAME)),
  );
