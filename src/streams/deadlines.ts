import type { SessionState } from '../core/session.js';

/**
 * The next instant the session crosses the edge of a `windowMs` visibility window (it stops being
 * listed), or `Infinity`. Listings change then, with no new record.
 */
export const windowEdgeAt = (s: SessionState, now: number, windowMs: number | undefined): number => {
  if (windowMs === undefined || s.lastActivityAt <= 0) return Number.POSITIVE_INFINITY;
  const edge = s.lastActivityAt + windowMs;
  return edge > now ? edge : Number.POSITIVE_INFINITY;
};
