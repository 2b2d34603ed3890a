import { z } from 'zod';

/**
 * A token count or a cost as an agent records it. Never negative (summed, it would take tokens
 * away from a session's totals) and never beyond 2^53 (no agent writes one; two such summed to
 * Infinity, which JSON sends as null). Each source says what a refused one is: a failed record
 * (a counted diagnostic) or 0 where its schema reads every field leniently.
 */
export const countSchema = z.number().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** `countSchema` without zod, for hand-written record guards (claude/guard.ts). */
export const isCount = (value: unknown): value is number => typeof value === 'number' && value >= 0 && value <= Number.MAX_SAFE_INTEGER;

/** A count of a leniently read record: a refused one reads as 0. */
export const lenientCount = countSchema.catch(0).default(0);
