import { map, type Observable } from 'rxjs';
import type { SessionDetail, SessionState } from '../../core/session.js';
import { resolveActivity } from '../../streams/activity.js';
import type { PipelineFrame } from '../../streams/frames.js';
import { toDetail } from '../../streams/views.js';
import { isVisible, selectVisible, type VisibilityOptions } from '../../streams/visibility.js';
import type { WorktreeLookup } from '../../streams/worktree.js';
import type { SessionViews } from './store.js';

/**
 * The adapter from the pipeline to the API store: every frame (events or a deadline) becomes the
 * visible details at the frame's own `now`. A session's detail is built once per version of its
 * state and activity (folded states are immutable, so the object is the version), so a frame
 * costs work for the sessions that changed, not for all of them. The detail route may also name
 * a session outside the window, but never one hidden for good (sub-agent, excluded directory,
 * disabled agent).
 */
export const pipelineViews$ = (
  frame$: Observable<PipelineFrame>,
  // A function: the listing options may change while running (Pipeline.setVisibility).
  options: { readonly visibility: VisibilityOptions | (() => VisibilityOptions); readonly worktree: WorktreeLookup },
): Observable<SessionViews> => {
  const given = options.visibility;
  const visibilityNow = typeof given === 'function' ? given : () => given;
  const built = new WeakMap<SessionState, { readonly activity: string; readonly tool: string; readonly detail: SessionDetail }>();
  const detailAt = (session: SessionState, now: number): SessionDetail => {
    const { activity, tool } = resolveActivity(session, now);
    const cached = built.get(session);
    if (cached && cached.activity === activity && cached.tool === tool) return cached.detail;
    const detail = toDetail(session, { now, worktree: options.worktree(session.cwd) });
    built.set(session, { activity, tool, detail });
    return detail;
  };
  return frame$.pipe(
    map((frame): SessionViews => {
      const visibility = visibilityNow();
      const anyAge: VisibilityOptions = { ...visibility, windowMinutes: undefined };
      return {
        visible: selectVisible(frame.state.sessions.values(), frame.now, visibility).map((session) => detailAt(session, frame.now)),
        lookup: (sessionId) => {
          for (const session of frame.state.sessions.values()) {
            if (session.sessionId === sessionId && isVisible(session, frame.now, anyAge)) return detailAt(session, frame.now);
          }
          return undefined;
        },
        windowMinutes: visibility.windowMinutes ?? 0,
        ready: frame.state.ready,
        diagnostics: Object.values(frame.state.diagnostics).reduce((sum, n) => sum + n, 0),
      };
    }),
  );
};
