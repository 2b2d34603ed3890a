/** Reconnect delays: 1 s doubling to 30 s, back to 1 s once a stream has delivered. */
const BACKOFF = { firstMs: 1_000, maxMs: 30_000 } as const;

export const nextDelay = (previousMs: number | undefined): number =>
  previousMs === undefined ? BACKOFF.firstMs : Math.min(BACKOFF.maxMs, previousMs * 2);

/** `Retry-After` in seconds (the server sends seconds) as ms; undefined when absent or unreadable. */
export const retryAfterMs = (header: string | null): number | undefined => {
  if (header === null || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header.trim()) * 1000;
};
