/**
 * Slows down wrong tokens, per client address, without ever touching the right one: each address
 * has a bucket of `maxFailures` tries that refills at `maxFailures` per `windowMs`; a wrong token
 * takes one, and a wrong token meeting an empty bucket gets 429. A correct token never consults the
 * limiter (every local client is 127.0.0.1, so blocking the address would lock out the TUI, scripts
 * and the dashboard because of one bad client). The 256-bit token makes guessing hopeless; the
 * limit only bounds the work a flood causes. Memory is bounded by `maxAddresses`.
 */
export interface FailureLimiter {
  /**
   * Spend one try for a wrong token from `address`: 0 when it may still be answered 401,
   * otherwise how long (ms) until the next try is available (answer 429).
   */
  readonly recordFailure: (address: string) => number;
}

export interface FailureLimitOptions {
  readonly maxFailures: number;
  readonly windowMs: number;
  readonly now: () => number;
  readonly maxAddresses?: number;
}

/** 30 wrong tokens at once, then one every 2 s: a flood costs little, a typo costs nothing. */
export const DEFAULT_FAILURE_LIMIT = { maxFailures: 30, windowMs: 60_000 } as const;

interface Bucket {
  tokens: number;
  at: number;
}

export const createFailureLimiter = (options: FailureLimitOptions): FailureLimiter => {
  const maxAddresses = options.maxAddresses ?? 10_000;
  const msPerToken = options.windowMs / options.maxFailures;
  // Insertion order doubles as "least recently failed first" (re-inserted on each failure).
  const buckets = new Map<string, Bucket>();

  return {
    recordFailure: (address) => {
      const now = options.now();
      const previous = buckets.get(address);
      const refilled = previous
        ? Math.min(options.maxFailures, previous.tokens + (now - previous.at) / msPerToken)
        : options.maxFailures;
      buckets.delete(address);
      if (refilled < 1) {
        buckets.set(address, { tokens: refilled, at: now });
        return Math.max(1, Math.ceil((1 - refilled) * msPerToken));
      }
      buckets.set(address, { tokens: refilled - 1, at: now });
      while (buckets.size > maxAddresses) {
        const first = buckets.keys().next();
        if (first.done) break;
        buckets.delete(first.value);
      }
      return 0;
    },
  };
};
