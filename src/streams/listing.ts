import { combineLatest, map, type Observable } from 'rxjs';
import type { SessionState } from '../core/session.js';
import type { PipelineFrame } from './frames.js';
import { selectVisible, type VisibilityOptions } from './visibility.js';

/**
 * The listed sessions, newest first, re-evaluated on every frame (events and ticks) and whenever
 * the options change (the TUI widens the window with `+`/`-`). Time comes from the frame.
 */
export const listSessions$ = (frame$: Observable<PipelineFrame>, options$: Observable<VisibilityOptions>): Observable<SessionState[]> =>
  combineLatest([frame$, options$]).pipe(map(([frame, options]) => selectVisible(frame.state.sessions.values(), frame.now, options)));
