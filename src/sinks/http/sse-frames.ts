import {
  asyncScheduler,
  concat,
  distinctUntilChanged,
  interval,
  map,
  merge,
  of,
  share,
  throttleTime,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import type { SessionsSnapshot } from './store.js';

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

/** The `update` event lazyagent's clients read: `{ sessions, stats }`. */
export const updateFrame = (snapshot: SessionsSnapshot): string =>
  `event: update\ndata: ${JSON.stringify({ sessions: snapshot.summaries, stats: snapshot.stats })}\n\n`;

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
