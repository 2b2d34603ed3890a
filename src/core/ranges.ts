/** The ranges of numeric flags, shared with the API routes that take the same values. */

/** `--limit`: more than anyone reads through, and far below what SQLite's LIMIT takes. */
export const LIMIT_RANGE = { min: 1, max: 10_000 } as const;
/** `--timeout`, in seconds: how long one receiver may take to answer a test or replay. */
export const TIMEOUT_RANGE = { min: 1, max: 600 } as const;
