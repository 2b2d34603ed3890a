import type { Activity } from '../core/activity.js';
import type { AgentKind } from '../core/agents.js';
import type { SessionEvent, SessionKey, SessionState, Transition } from '../core/session.js';
import { deriveActivity } from './activity.js';
import { initialFoldState, reduceSessions, type FoldState } from './sessions-reducer.js';

/** One input of the fold: a batch of events (empty for a clock tick) and the time it is folded at. */
export interface FoldInput {
  readonly events: readonly SessionEvent[];
  readonly now: number;
}

/** What the pipeline emits: the folded state, its activities at `now`, and the changes this frame caused. */
export interface PipelineFrame {
  readonly state: FoldState;
  readonly now: number;
  readonly activities: ReadonlyMap<SessionKey, Activity>;
  /**
   * Activity changes of this frame; none on first sight of a session, none before `ready`.
   * (`activities` stays empty until `ready` too: nothing may announce a change before then.)
   */
  readonly transitions: readonly Transition[];
}

export const initialFrame = (expectedAgents: readonly AgentKind[], now: number): PipelineFrame => ({
  state: initialFoldState(expectedAgents),
  now,
  activities: new Map(),
  transitions: [],
});

const transition = (s: SessionState, from: Activity, to: Activity, at: number): Transition => ({
  agent: s.agent,
  sessionId: s.sessionId,
  from,
  to,
  at,
  cwd: s.cwd,
  isSidechain: s.isSidechain,
});

/**
 * Pure step of the pipeline (used under `scan`). Activities are recomputed for the sessions the
 * batch touched, and for every session on a tick (empty batch), since only time changes them then,
 * and on the frame that turns `ready`.
 * NOTE: transitions are emitted only once the previous frame was ready: replaying history during
 * the first discovery pass must not announce changes that happened hours ago.
 */
export const stepFrame = (frame: PipelineFrame, input: FoldInput): PipelineFrame => {
  const { state, changed } = reduceSessions(frame.state, input.events);
  // During the first discovery pass no transition is announced, so activities wait for `ready`
  // and are then derived once for every session (not once per batch for thousands of sessions).
  if (!state.ready) return { state, now: input.now, activities: frame.activities, transitions: [] };
  const keys: Iterable<SessionKey> = input.events.length === 0 || !frame.state.ready ? state.sessions.keys() : changed;
  const announce = frame.state.ready;
  const activities = new Map(frame.activities);
  const transitions: Transition[] = [];
  for (const key of keys) {
    const session = state.sessions.get(key);
    if (!session) {
      activities.delete(key);
      continue;
    }
    const to = deriveActivity(session, input.now);
    const from = frame.activities.get(key);
    activities.set(key, to);
    if (announce && from !== undefined && from !== to) transitions.push(transition(session, from, to, input.now));
  }
  return { state, now: input.now, activities, transitions };
};
