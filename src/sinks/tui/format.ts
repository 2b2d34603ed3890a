import { compactAge } from '../../core/age.js';
import type { CostSource, RecentMessage, ToolUse } from '../../core/session.js';

/** Pure value formatters of the TUI. Times are epoch ms; `now` is always passed in. */

/** `now`, `45s`, `12m`, `3h`, `2d`: the age of a timestamp, "" when unknown (0). */
export const formatAge = (at: number, now: number): string => (at <= 0 ? '' : compactAge(at, now));

const two = (n: number): string => String(n).padStart(2, '0');

/** `14:03:09` in the local zone (TZ), the clock users compare with. */
export const formatClock = (at: number): string => {
  if (at <= 0) return '';
  const d = new Date(at);
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
};

/** `950`, `12.3k`, `4.5M`: token counts at a glance. */
export const formatTokens = (n: number): string => {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 1 : 0)}M`;
};

/**
 * A cost is shown only when tokens were counted and it exceeds $0.001; below one cent it reads
 * `<$0.01`. An estimate from list prices reads `~$2.34` (whole dollars from $100, so it fits the
 * column), a model no one prices `-`. `undefined` means "show nothing".
 */
export const formatCost = (costUsd: number, totalTokens: number, source: CostSource = 'agent'): string | undefined => {
  if (totalTokens <= 0) return undefined;
  if (source === null) return '-';
  if (!(costUsd > 0.001)) return undefined;
  const mark = source === 'price-table' ? '~' : '';
  if (costUsd < 0.01) return `${mark}<$0.01`;
  if (mark !== '' && costUsd >= 99.995) return `~$${Math.round(costUsd)}`;
  return `${mark}$${costUsd.toFixed(2)}`;
};

/** What a cost's mark means, where the detail and the help say it. */
export const ESTIMATE_NOTE = 'estimated from list prices';

const SPARK = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'] as const;

/**
 * Records per minute over the last `minutes` minutes, oldest first, from the timestamps the
 * session keeps (recent tool calls, recent messages, last activity). A minute with nothing is 0.
 */
export const activityPerMinute = (
  s: { readonly recentTools: readonly ToolUse[]; readonly recentMessages: readonly RecentMessage[]; readonly lastActivityAt: number },
  now: number,
  minutes: number,
): number[] => {
  const buckets = new Array<number>(minutes).fill(0);
  const stamps = [...s.recentTools.map((t) => t.at), ...s.recentMessages.map((m) => m.at)];
  // The last activity is usually one of those records; count it only when it is not.
  if (!stamps.includes(s.lastActivityAt)) stamps.push(s.lastActivityAt);
  for (const at of stamps) {
    if (at <= 0 || at > now) continue;
    const ago = Math.floor((now - at) / 60_000);
    if (ago < minutes) buckets[minutes - 1 - ago] = (buckets[minutes - 1 - ago] ?? 0) + 1;
  }
  return buckets;
};

/**
 * Bars scaled to the busiest minute, but never finer than 4 records for a full bar, so a lone
 * record reads as low rather than as a peak. A quiet minute is a space so bursts stand out.
 */
export const sparkline = (counts: readonly number[]): string => {
  const max = Math.max(4, ...counts);
  return counts
    .map((count) => (count <= 0 || max === 0 ? ' ' : SPARK[Math.min(SPARK.length - 1, Math.ceil((count / max) * SPARK.length) - 1)]))
    .join('');
};

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] as const;
export const SPINNER_STEP_MS = 250;

/** The spinner glyph at `now`: derived from the clock so render stays a pure function. */
export const spinnerAt = (now: number): string => SPINNER[Math.floor(now / SPINNER_STEP_MS) % SPINNER.length] ?? '';
