import type { Activity } from '../core/activity.js';
import type { SessionState, ToolUse } from '../core/session.js';
import {
  ACTIVITY_TIMEOUT_MS,
  COMPACTION_TIMEOUT_MS,
  SPAWNING_TIMEOUT_MS,
  THINKING_TIMEOUT_MS,
  WAITING_GRACE_MS,
  WAITING_TIMEOUT_MS,
} from './constants.js';
import { isSpawningTool, toolActivity } from './tools.js';

/** The configurable part of the state machine (`waiting_timeout_minutes`). */
export interface ActivityRules {
  /** How long after the answer "waiting" is shown; `Infinity` keeps it until a newer record. */
  readonly waitingTimeoutMs: number;
}

const DEFAULT_ACTIVITY_RULES: ActivityRules = { waitingTimeoutMs: WAITING_TIMEOUT_MS };

/** `waiting_timeout_minutes` as rules: 0 means waiting lasts until the user acts (or the window drops the session). */
export const activityRules = (waitingTimeoutMinutes: number | undefined): ActivityRules =>
  waitingTimeoutMinutes === undefined ? DEFAULT_ACTIVITY_RULES : { waitingTimeoutMs: waitingTimeoutMinutes === 0 ? Number.POSITIVE_INFINITY : waitingTimeoutMinutes * 60_000 };

/**
 * When the session's current wait for its user began (the agent's answer, the record's own
 * time), or 0 when it is not waiting for its user. Unlike the displayed activity this never times
 * out: a wait ends only with a newer record (the user acts, or the agent goes on).
 */
export const waitingSince = (s: Pick<SessionState, 'lastTurn' | 'lastTurnAt'>): number => (s.lastTurn === 'assistant' && s.lastTurnAt > 0 ? s.lastTurnAt : 0);

/** The displayed activity and, when a tool decides it, that tool's raw name. */
export interface ResolvedActivity {
  readonly activity: Activity;
  readonly tool: string;
}

const IDLE: ResolvedActivity = { activity: 'idle', tool: '' };
const plain = (activity: Activity): ResolvedActivity => ({ activity, tool: '' });
const age = (now: number, at: number): number => now - at;
const within = (now: number, at: number, limit: number): boolean => at > 0 && age(now, at) < limit;

/**
 * A compaction is shown from its start for 30 s, or until its end record, or until the agent
 * visibly moved on (an answer or a tool call after the start). Agents that log one record per
 * compaction (claude `compact_boundary`) send no end: the 30 s window and moving on decide.
 */
const isCompacting = (s: SessionState, now: number): boolean => {
  const start = s.compactionStartedAt;
  if (!within(now, start, COMPACTION_TIMEOUT_MS)) return false;
  if (s.compactionEndedAt >= start) return false;
  const movedOn = (s.lastTurn === 'assistant' || s.lastTurn === 'tool_call' || s.lastTurn === 'thinking') && s.lastTurnAt > start;
  return !movedOn;
};

/** No tool call of the session is later than this (its newest record; the last one read, for a state built by hand). */
const lastRecordAt = (s: SessionState): number => Math.max(s.lastTurnAt, s.lastActivityAt);

/** A pending call shows its activity: sub-agents up to 20 min, other tools up to 30 s after the call. */
const pendingActivity = (tool: ToolUse, now: number): ResolvedActivity | undefined => {
  const limit = isSpawningTool(tool.name) ? SPAWNING_TIMEOUT_MS : ACTIVITY_TIMEOUT_MS;
  return within(now, tool.at, limit) ? { activity: toolActivity(tool.name), tool: tool.name } : undefined;
};

/**
 * The activity state machine: a pure function of a session and `now`. Decided by the last
 * meaningful record (`lastTurn`), every window measured from the records' own timestamps:
 *
 * | last record  | shown                                                                          |
 * |--------------|--------------------------------------------------------------------------------|
 * | (any)        | "compacting" first, while a compaction runs (see isCompacting)                  |
 * | answer       | "thinking" for 10 s (grace: a tool call may follow), "waiting" until the         |
 * |              | waiting timeout (`rules`, default 2 min; none with 0), then "idle"              |
 * | prompt       | "thinking" for 30 s, then "idle"                                                |
 * | thinking     | (a thinking block, no answer yet) "thinking" for 30 s, then "idle"              |
 * | tool call    | newest pending call: its activity (spawning 20 min, others 30 s), then "idle"   |
 * | tool result  | a still-pending call as above; else the just-finished tool's activity for 30 s   |
 * |              | after its call (a burst of Reads reads "reading", not flicker); else "thinking"  |
 * |              | for 30 s after the result, then "idle"                                          |
 * | none         | "idle"                                                                          |
 *
 * A tool that got its result and was followed by an answer never paints the session: the answer
 * decides (waiting), as docs/activity.md says.
 */
export const resolveActivity = (s: SessionState, now: number, rules: ActivityRules = DEFAULT_ACTIVITY_RULES): ResolvedActivity => {
  if (isCompacting(s, now)) return plain('compacting');
  switch (s.lastTurn) {
    case 'none':
      return IDLE;
    case 'assistant':
      if (within(now, s.lastTurnAt, WAITING_GRACE_MS)) return plain('thinking');
      return within(now, s.lastTurnAt, rules.waitingTimeoutMs) ? plain('waiting') : IDLE;
    case 'user':
    case 'thinking':
      return within(now, s.lastTurnAt, THINKING_TIMEOUT_MS) ? plain('thinking') : IDLE;
    case 'tool_call':
    case 'tool_result': {
      const pending = s.pendingTools.at(-1);
      const fromPending = pending && pendingActivity(pending, now);
      if (fromPending) return fromPending;
      // No tool was called after the session's last record: once that is older than the tool
      // window, the finished tool cannot paint, and a restored state's detail stays unread.
      const last = within(now, lastRecordAt(s), ACTIVITY_TIMEOUT_MS) ? s.recentTools.at(-1) : undefined;
      if (last && last.done && within(now, last.at, ACTIVITY_TIMEOUT_MS)) return { activity: toolActivity(last.name), tool: last.name };
      if (s.lastTurn === 'tool_result' && within(now, s.lastTurnAt, THINKING_TIMEOUT_MS)) return plain('thinking');
      return IDLE;
    }
    default:
      return s.lastTurn satisfies never;
  }
};

/**
 * The next instant after `now` at which `resolveActivity(s, t)` may give another answer with no
 * new record, or `Infinity` when time alone can no longer change it. Every window above ends at a
 * record's time plus a constant, so the candidates are those ends: the earliest one after `now`
 * is never later than a real change (it may be an instant at which nothing changes, a harmless
 * extra look). The pipeline re-derives a session only at this instant or on its events. Pure.
 */
export const nextChangeAt = (s: SessionState, now: number, rules: ActivityRules = DEFAULT_ACTIVITY_RULES): number => {
  let next = Number.POSITIVE_INFINITY;
  const consider = (at: number, limit: number): void => {
    if (at <= 0) return;
    const end = at + limit;
    if (end > now && end < next) next = end;
  };
  consider(s.compactionStartedAt, COMPACTION_TIMEOUT_MS);
  consider(s.lastTurnAt, WAITING_GRACE_MS);
  consider(s.lastTurnAt, rules.waitingTimeoutMs);
  consider(s.lastTurnAt, THINKING_TIMEOUT_MS);
  const pending = s.pendingTools.at(-1);
  if (pending) consider(pending.at, isSpawningTool(pending.name) ? SPAWNING_TIMEOUT_MS : ACTIVITY_TIMEOUT_MS);
  // The finished tool paints the session only while the last record is a tool record (above),
  // and only within the tool window of the session's last record (no call is later): reading
  // recentTools otherwise would load the lazily restored detail of every cached session. That
  // window's end is a candidate too, as resolveActivity stops looking there.
  if ((s.lastTurn === 'tool_call' || s.lastTurn === 'tool_result') && lastRecordAt(s) + ACTIVITY_TIMEOUT_MS > now) {
    const last = s.recentTools.at(-1);
    if (last) {
      consider(last.at, ACTIVITY_TIMEOUT_MS);
      consider(lastRecordAt(s), ACTIVITY_TIMEOUT_MS);
    }
  }
  return next;
};

/** Just the activity (the common case for sinks and transitions). */
export const deriveActivity = (s: SessionState, now: number, rules: ActivityRules = DEFAULT_ACTIVITY_RULES): Activity => resolveActivity(s, now, rules).activity;
