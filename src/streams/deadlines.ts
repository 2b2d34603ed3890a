import type { SessionState } from '../core/session.js';
import {
  ACTIVITY_TIMEOUT_MS,
  COMPACTION_TIMEOUT_MS,
  SPAWNING_TIMEOUT_MS,
  THINKING_TIMEOUT_MS,
  WAITING_GRACE_MS,
  WAITING_TIMEOUT_MS,
} from './constants.js';
import { isSpawningTool } from './tools.js';

/**
 * The next instant after `now` at which `resolveActivity(s, t)` may give another answer without
 * a new record: every window of the state machine (activity.ts) ends at a record's time plus a
 * constant, so the candidates are those ends. It may name an instant at which nothing changes
 * (a harmless extra look), never a later one than a real change: the pipeline re-derives a
 * session only when its deadline passes or it gets events. `Infinity` when time alone can no
 * longer change it (idle for good). Pure.
 */
export const nextActivityChangeAt = (s: SessionState, now: number): number => {
  let next = Number.POSITIVE_INFINITY;
  const consider = (at: number, limit: number): void => {
    if (at <= 0) return;
    const end = at + limit;
    if (end > now && end < next) next = end;
  };
  consider(s.compactionStartedAt, COMPACTION_TIMEOUT_MS);
  consider(s.lastTurnAt, WAITING_GRACE_MS);
  consider(s.lastTurnAt, WAITING_TIMEOUT_MS);
  consider(s.lastTurnAt, THINKING_TIMEOUT_MS);
  const pending = s.pendingTools.at(-1);
  if (pending) consider(pending.at, isSpawningTool(pending.name) ? SPAWNING_TIMEOUT_MS : ACTIVITY_TIMEOUT_MS);
  // The finished tool paints the session only while the last record is a tool record (activity.ts);
  // reading the list otherwise would also load the detail of every session restored from the cache.
  if (s.lastTurn === 'tool_call' || s.lastTurn === 'tool_result') {
    const last = s.recentTools.at(-1);
    if (last) consider(last.at, ACTIVITY_TIMEOUT_MS);
  }
  return next;
};

/**
 * The next instant the session crosses the edge of a `windowMs` visibility window (it stops being
 * listed), or `Infinity`. Listings change then, with no new record.
 */
export const windowEdgeAt = (s: SessionState, now: number, windowMs: number | undefined): number => {
  if (windowMs === undefined || s.lastActivityAt <= 0) return Number.POSITIVE_INFINITY;
  const edge = s.lastActivityAt + windowMs;
  return edge > now ? edge : Number.POSITIVE_INFINITY;
};
