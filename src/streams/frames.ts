import type { Activity } from '../core/activity.js';
import type { AgentKind } from '../core/agents.js';
import type { SessionEvent, SessionKey, SessionState, Transition } from '../core/session.js';
import { deriveActivity } from './activity.js';
import { nextActivityChangeAt, windowEdgeAt } from './deadlines.js';
import { initialFoldState, reduceSessions, type FoldState } from './sessions-reducer.js';

/** One input of the fold: a batch of events (empty when a deadline passed) and the time it is folded at. */
export interface FoldInput {
  readonly events: readonly SessionEvent[];
  readonly now: number;
  /** Re-derive every session (the listing window changed, so every window-edge deadline moved). */
  readonly rederive?: boolean;
}

/** What the step needs besides the input: the listing window, whose edge is a deadline too. */
export interface FrameOptions {
  readonly windowMs?: number;
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
  /**
   * Per session, the next instant at which time alone may change what it shows (its activity, or
   * its place in the window); sessions that time can no longer change are absent. The pipeline
   * wakes at the earliest one, `nextWakeAt`, and re-derives only the sessions due then.
   */
  readonly deadlines: ReadonlyMap<SessionKey, number>;
  readonly nextWakeAt: number;
}

export const initialFrame = (expectedAgents: readonly AgentKind[], now: number): PipelineFrame => ({
  state: initialFoldState(expectedAgents),
  now,
  activities: new Map(),
  transitions: [],
  deadlines: new Map(),
  nextWakeAt: Number.POSITIVE_INFINITY,
});

const earliest = (deadlines: ReadonlyMap<SessionKey, number>): number => {
  let min = Number.POSITIVE_INFINITY;
  for (const at of deadlines.values()) if (at < min) min = at;
  return min;
};

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
 * Pure step of the pipeline (used under `scan`). Activities are re-derived for the sessions the
 * batch touched and, when a deadline passed (an empty batch), for the sessions due at `now`:
 * nothing else changes with time (deadlines.ts), so a quiet monitor does no work per session.
 * Every session is derived once on the frame that turns `ready`.
 * NOTE: transitions are emitted only once the previous frame was ready: replaying history during
 * the first discovery pass must not announce changes that happened hours ago.
 */
export const stepFrame = (frame: PipelineFrame, input: FoldInput, options: FrameOptions = {}): PipelineFrame => {
  const { state, changed } = reduceSessions(frame.state, input.events);
  // During the first discovery pass no transition is announced, so activities wait for `ready`
  // and are then derived once for every session (not once per batch for thousands of sessions).
  if (!state.ready) return { ...frame, state, now: input.now, transitions: [] };
  const keys: Iterable<SessionKey> = !frame.state.ready || input.rederive === true
    ? state.sessions.keys()
    : input.events.length === 0
      ? [...frame.deadlines].filter(([, at]) => at <= input.now).map(([key]) => key)
      : changed;
  const announce = frame.state.ready;
  const activities = new Map(frame.activities);
  const deadlines = new Map(frame.deadlines);
  const transitions: Transition[] = [];
  for (const key of keys) {
    const session = state.sessions.get(key);
    if (!session) {
      activities.delete(key);
      deadlines.delete(key);
      continue;
    }
    const to = deriveActivity(session, input.now);
    const from = frame.activities.get(key);
    activities.set(key, to);
    const due = Math.min(nextActivityChangeAt(session, input.now), windowEdgeAt(session, input.now, options.windowMs));
    if (Number.isFinite(due)) deadlines.set(key, due);
    else deadlines.delete(key);
    if (announce && from !== undefined && from !== to) transitions.push(transition(session, from, to, input.now));
  }
  return { state, now: input.now, activities, transitions, deadlines, nextWakeAt: earliest(deadlines) };
};
