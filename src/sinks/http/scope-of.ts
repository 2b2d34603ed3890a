import type { SessionsState } from '../../core/contracts.js';
import type { ScopeDocument } from '../../core/wire.js';
import { countAnyAge, countVisible, type VisibilityOptions } from '../../streams/visibility.js';

/** Pure: the `GET /api/scope` document for a state at `now` (the same counts as the TUI's empty list). */
export const scopeOf = (
  state: SessionsState,
  now: number,
  visibility: VisibilityOptions,
  lookedIn: ScopeDocument['looked_in'],
): ScopeDocument => {
  const listed = countVisible(state.sessions.values(), now, visibility);
  const anyAge = countAnyAge(state.sessions.values(), now, visibility);
  return { window_minutes: visibility.windowMinutes ?? 0, listed, outside_window: Math.max(0, anyAge - listed), ready: state.ready, looked_in: lookedIn };
};
