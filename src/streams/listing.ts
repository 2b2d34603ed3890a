import { asyncScheduler, combineLatest, concat, defer, EMPTY, of, switchMap, timer, type Observable, type SchedulerLike } from 'rxjs';
import type { SessionState } from '../core/session.js';
import { windowEdgeAt } from './deadlines.js';
import type { PipelineFrame } from './frames.js';
import { selectVisible, type VisibilityOptions } from './visibility.js';

/**
 * The listed sessions, newest first, re-evaluated on every frame, whenever the options change
 * (the TUI widens the window with `+`/`-`), and when a listed session reaches the edge of THIS
 * listing's window (the pipeline only wakes for the configured one). Time comes from the frame,
 * advanced by the scheduler between frames.
 */
export const listSessions$ = (
  frame$: Observable<PipelineFrame>,
  options$: Observable<VisibilityOptions>,
  scheduler: SchedulerLike = asyncScheduler,
): Observable<SessionState[]> =>
  combineLatest([frame$, options$]).pipe(
    switchMap(([frame, options]) => {
      const seenAt = scheduler.now();
      const windowMs = options.windowMinutes === undefined ? undefined : options.windowMinutes * 60_000;
      const listAt = (now: number): Observable<SessionState[]> =>
        defer(() => {
          const listed = selectVisible(frame.state.sessions.values(), now, options);
          const edge = Math.min(...listed.map((s) => windowEdgeAt(s, now, windowMs)));
          const next = Number.isFinite(edge) ? timer(edge - now, scheduler).pipe(switchMap(() => listAt(frame.now + (scheduler.now() - seenAt)))) : EMPTY;
          return concat(of(listed), next);
        });
      return listAt(frame.now);
    }),
  );
