import { z } from 'zod';

/**
 * The latest time a JavaScript `Date` holds (+275760-09-13): a later one (a damaged record's
 * `1e21`) is no time at all, and formatting it as RFC 3339 throws (`toISOString`).
 */
const MAX_TIME_MS = 8.64e15;

/** `value` when it is an epoch-ms time agentwatch can show (after 1970, within `Date`'s range), else 0 ("unknown"). */
export const timeMs = (value: unknown): number => (typeof value === 'number' && value > 0 && value <= MAX_TIME_MS ? value : 0);

/** A numeric epoch-ms field of a record (kimi, amp, Claude Desktop): a value outside `Date`'s range is not a time. */
export const timeSchema = z.number().positive().max(MAX_TIME_MS);
