/** The ranges of numeric flags, shared with the API routes that take the same values. */

/** `--limit`: more than anyone reads through, and far below what SQLite's LIMIT takes. */
export const LIMIT_RANGE = { min: 1, max: 10_000 } as const;
/** `--window`, in minutes: the range of `window_minutes` (a minute to a week). */
export const WINDOW_RANGE = { min: 1, max: 10_080 } as const;
/** `--timeout`, in seconds: how long one receiver may take to answer a test or replay. */
export const TIMEOUT_RANGE = { min: 1, max: 600 } as const;
