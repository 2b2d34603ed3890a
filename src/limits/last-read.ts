import type { LimitsJson } from './render-json.js';

/**
 * The latest limits document this process read on demand (the TUI modal, `GET /api/limits`).
 * Metrics expose it as it was at that read, with its time: limits are never polled for metrics.
 *
 * NOTE: a process-wide slot rather than an injected store: the readers (TUI, API route) and the
 * one reader of it (metrics) are different sinks that share nothing else, and there is one
 * process-wide truth of "what did we last read".
 */
let latest: { readonly json: LimitsJson; readonly readAt: number } | undefined;

export const recordLimitsRead = (json: LimitsJson, readAt: number): void => {
  latest = { json, readAt };
};

export const latestLimitsRead = (): { readonly json: LimitsJson; readonly readAt: number } | undefined => latest;

/** Tests only: forget the last read. */
export const clearLimitsRead = (): void => {
  latest = undefined;
};
