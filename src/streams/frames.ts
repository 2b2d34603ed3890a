import type { Activity } from '../core/activity.js';
import type { AgentKind } from '../core/agents.js';
import type { SessionEvent, SessionKey, SessionState, Transition } from '../core/session.js';
import { deriveActivity, nextChangeAt, type ActivityRules } from './activity.js';
import { windowEdgeAt } from './deadlines.js';
import { PersistentMap } from './persistent-map.js';
import { initialFoldState, reduceSessions, type FoldState } from './sessions-reducer.js';
import { popWake, pushWake, wakeQueueOf, type WakeQueue } from './wake-queue.js';

/** One input of the fold: a batch of events (empty when a deadline passed) and the time it is folded at. */
export interface FoldInput {
  readonly events: readonly SessionEvent[];
  readonly now: number;
  /** Re-derive every session (the listing window changed, so every window-edge deadline moved). */
  readonly rederive?: boolean;
}

/** What the step needs besides the input: the listing window, whose edge is a deadline too, and the activity rules. */
export interface FrameOptions {
  readonly windowMs?: number | undefined;
  readonly rules?: ActivityRules;
}

/** Every session (the frame that turns ready, a new listing window). */
export const ALL_SESSIONS = 'all';

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
   * The sessions whose state, activity or place in the window may differ from the previous frame
   * (events folded, a deadline passed, or `ALL_SESSIONS`): views need to look at these only.
   */
  readonly touched: ReadonlySet<SessionKey> | typeof ALL_SESSIONS;
  /**
   * Per session, the next instant at which time alone may change what it shows (its activity, or
   * its place in the window); sessions that time can no longer change are absent. The pipeline
   * wakes at the earliest one, `nextWakeAt`, and re-derives only the sessions due then.
   */
  readonly deadlines: ReadonlyMap<SessionKey, number>;
  readonly nextWakeAt: number;
  /** The deadlines earliest first (with superseded entries, skipped when they come up). */
  readonly wakeQueue: WakeQueue | undefined;
}

const NOTHING: ReadonlySet<SessionKey> = new Set();

export const initialFrame = (expectedAgents: readonly AgentKind[], now: number): PipelineFrame => ({
  state: initialFoldState(expectedAgents),
  now,
  activities: PersistentMap.empty(),
  transitions: [],
  touched: NOTHING,
  deadlines: PersistentMap.empty(),
  nextWakeAt: Number.POSITIVE_INFINITY,
  wakeQueue: undefined,
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

const asPersistent = <V>(map: ReadonlyMap<SessionKey, V>): PersistentMap<SessionKey, V> =>
  map instanceof PersistentMap ? (map as PersistentMap<SessionKey, V>) : PersistentMap.from(map);

/**
 * The sessions due at `now` (their current deadline has passed), and the queue without them.
 * Entries superseded by a later deadline of the same session are dropped on the way.
 */
const takeDue = (queue: WakeQueue | undefined, deadlines: ReadonlyMap<SessionKey, number>, now: number): { due: ReadonlySet<SessionKey>; queue: WakeQueue | undefined } => {
  const due = new Set<SessionKey>();
  while (queue && queue.at <= now) {
    if (deadlines.get(queue.key) === queue.at) due.add(queue.key);
    queue = popWake(queue);
  }
  return { due, queue };
};

/** The earliest live deadline (superseded entries at the front are dropped). */
const settle = (queue: WakeQueue | undefined, deadlines: ReadonlyMap<SessionKey, number>): WakeQueue | undefined => {
  while (queue && deadlines.get(queue.key) !== queue.at) queue = popWake(queue);
  return queue;
};

/** The next instant time alone may change what `session` shows: its activity, or its place in the window. */
const deadlineOf = (session: SessionState, now: number, options: FrameOptions): number =>
  Math.min(nextChangeAt(session, now, options.rules), windowEdgeAt(session, now, options.windowMs));

/**
 * Every session derived afresh (the frame that turns ready, a new window): the maps are built in
 * one pass and the queue from scratch, sorted (every old entry is superseded). Transitions as in `stepFrame`.
 */
const deriveAll = (frame: PipelineFrame, state: FoldState, input: FoldInput, options: FrameOptions): PipelineFrame => {
  const activities = new Map<SessionKey, Activity>();
  const deadlines = new Map<SessionKey, number>();
  const transitions: Transition[] = [];
  const wakes: { at: number; key: SessionKey }[] = [];
  state.sessions.forEach((session, key) => {
    const to = deriveActivity(session, input.now, options.rules);
    activities.set(key, to);
    const due = deadlineOf(session, input.now, options);
    if (Number.isFinite(due)) {
      deadlines.set(key, due);
      wakes.push({ at: due, key });
    }
    const from = frame.activities.get(key);
    if (frame.state.ready && from !== undefined && from !== to) transitions.push(transition(session, from, to, input.now));
  });
  const queue = wakeQueueOf(wakes);
  return {
    state,
    now: input.now,
    activities: PersistentMap.from(activities),
    transitions,
    touched: ALL_SESSIONS,
    deadlines: PersistentMap.from(deadlines),
    nextWakeAt: queue?.at ?? Number.POSITIVE_INFINITY,
    wakeQueue: queue,
  };
};

/**
 * Pure step of the pipeline (used under `scan`). Activities are re-derived for the sessions the
 * batch touched and for the sessions whose deadline has passed at `now` (nothing else changes
 * with time, see `nextChangeAt`), so a frame costs work for what changed, not for every session:
 * the maps are persistent (a frame shares everything it did not change with the previous one)
 * and the deadlines sit in a queue, earliest first. Every session is derived once on the frame
 * that turns `ready`, and on `rederive`.
 * NOTE: transitions are emitted only once the previous frame was ready: replaying history during
 * the first discovery pass must not announce changes that happened hours ago.
 */
export const stepFrame = (frame: PipelineFrame, input: FoldInput, options: FrameOptions = {}): PipelineFrame => {
  const { state, changed } = reduceSessions(frame.state, input.events);
  // During the first discovery pass no transition is announced, so activities wait for `ready`
  // and are then derived once for every session (not once per batch for thousands of sessions).
  if (!state.ready) return { ...frame, state, now: input.now, transitions: [], touched: changed };
  const everything = !frame.state.ready || input.rederive === true;
  if (everything) return deriveAll(frame, state, input, options);
  let activities = asPersistent(frame.activities);
  let deadlines = asPersistent(frame.deadlines);
  const taken = takeDue(frame.wakeQueue, deadlines, input.now);
  let queue = taken.queue;
  const keys = new Set(changed);
  for (const key of taken.due) keys.add(key);
  const announce = frame.state.ready;
  const transitions: Transition[] = [];
  const touched = new Set<SessionKey>();
  for (const key of keys) {
    touched.add(key);
    const session = state.sessions.get(key);
    if (!session) {
      activities = activities.delete(key);
      deadlines = deadlines.delete(key);
      continue;
    }
    const to = deriveActivity(session, input.now, options.rules);
    const from = frame.activities.get(key);
    activities = activities.set(key, to);
    const due = deadlineOf(session, input.now, options);
    if (!Number.isFinite(due)) deadlines = deadlines.delete(key);
    else if (deadlines.get(key) !== due) {
      deadlines = deadlines.set(key, due);
      queue = pushWake(queue, due, key);
    }
    if (announce && from !== undefined && from !== to) transitions.push(transition(session, from, to, input.now));
  }
  queue = settle(queue, deadlines);
  return {
    state,
    now: input.now,
    activities,
    transitions,
    touched,
    deadlines,
    nextWakeAt: queue?.at ?? Number.POSITIVE_INFINITY,
    wakeQueue: queue,
  };
};
