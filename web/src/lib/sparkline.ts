import { timeOf } from '../../../src/core/time.js';
import type { SessionDetail } from './wire.js';

/**
 * The live card's sparkline: records per minute over the last `minutes` minutes, oldest first,
 * from the timestamps a session detail carries (recent tool calls and messages, last activity),
 * as the TUI's list does.
 */
export const perMinute = (
  detail: Pick<SessionDetail, 'recent_tools' | 'recent_messages' | 'last_activity'>,
  now: number,
  minutes: number,
): number[] => {
  const buckets = new Array<number>(minutes).fill(0);
  const stamps = [...detail.recent_tools.map((t) => t.timestamp), ...detail.recent_messages.map((m) => m.timestamp)];
  if (timeOf(detail.last_activity) > 0 && !stamps.includes(detail.last_activity)) stamps.push(detail.last_activity);
  for (const stamp of stamps) {
    const at = timeOf(stamp);
    if (at === 0 || at > now) continue;
    const ago = Math.floor((now - at) / 60_000);
    if (ago < minutes) buckets[minutes - 1 - ago] = (buckets[minutes - 1 - ago] ?? 0) + 1;
  }
  return buckets;
};

/**
 * Bar heights 0..1 scaled to the busiest minute, never finer than 4 records for a full bar (a
 * lone record reads as low, not as a peak).
 */
export const barHeights = (counts: readonly number[]): number[] => {
  const max = Math.max(4, ...counts);
  return counts.map((count) => (count <= 0 ? 0 : Math.max(0.12, count / max)));
};
