import { map, type Observable } from 'rxjs';
import type { SessionState } from '../../core/session.js';
import type { PipelineFrame } from '../../streams/frames.js';
import { toDetail } from '../../streams/views.js';
import { isVisible, selectVisible, type VisibilityOptions } from '../../streams/visibility.js';
import type { WorktreeLookup } from '../../streams/worktree.js';
import type { SessionViews } from './store.js';

/**
 * The adapter from the pipeline to the API store: every frame (events or a 1 s tick) becomes the
 * visible details at the frame's own `now`. The detail route may also name a session outside the
 * window, but never one that is hidden for good (sub-agent, excluded directory, disabled agent).
 */
export const pipelineViews$ = (
  frame$: Observable<PipelineFrame>,
  options: { readonly visibility: VisibilityOptions; readonly worktree: WorktreeLookup },
): Observable<SessionViews> => {
  const anyAge: VisibilityOptions = { ...options.visibility, windowMinutes: undefined };
  return frame$.pipe(
    map((frame): SessionViews => {
      const view = (session: SessionState) => toDetail(session, { now: frame.now, worktree: options.worktree(session.cwd) });
      return {
        visible: selectVisible(frame.state.sessions.values(), frame.now, options.visibility).map(view),
        lookup: (sessionId) => {
          for (const session of frame.state.sessions.values()) {
            if (session.sessionId === sessionId && isVisible(session, frame.now, anyAge)) return view(session);
          }
          return undefined;
        },
        windowMinutes: options.visibility.windowMinutes ?? 0,
      };
    }),
  );
};
