/**
 * Slows down guessing: after `maxFailures` failed authentications from one address within
 * `windowMs`, that address gets 429 (with Retry-After) until the oldest failure leaves the window.
 * Every request from the address is refused meanwhile, a correct token included, so a guesser
 * cannot tell a hit from a miss. Memory is bounded by `maxAddresses` (oldest entries dropped).
 */
export interface FailureLimiter {
  /** 0 when the address may try; otherwise how long it must wait, in ms. */
  readonly retryAfterMs: (address: string) => number;
  readonly recordFailure: (address: string) => void;
  readonly recordSuccess: (address: string) => void;
}

export interface FailureLimitOptions {
  readonly maxFailures: number;
  readonly windowMs: number;
  readonly now: () => number;
  readonly maxAddresses?: number;
}

/**
 * Loose on purpose: a token is 256 random-looking bits, so the limit only stops floods. A client
 * (or a test suite) checking that every route answers a wrong token with 401 must see 401s, not
 * 429s that lock out its next, correct request (PRODUCT.md section 4: wrong token -> 401).
 */
export const DEFAULT_FAILURE_LIMIT = { maxFailures: 30, windowMs: 60_000 } as const;

export const createFailureLimiter = (options: FailureLimitOptions): FailureLimiter => {
  const maxAddresses = options.maxAddresses ?? 10_000;
  // Insertion order doubles as "least recently failed first" (re-inserted on each failure).
  const failures = new Map<string, number[]>();

  const recent = (address: string): number[] => {
    const cutoff = options.now() - options.windowMs;
    const kept = (failures.get(address) ?? []).filter((at) => at > cutoff);
    if (kept.length === 0) failures.delete(address);
    else failures.set(address, kept);
    return kept;
  };

  return {
    retryAfterMs: (address) => {
      const times = recent(address);
      if (times.length < options.maxFailures) return 0;
      const oldest = times[times.length - options.maxFailures] ?? options.now();
      return Math.max(1, oldest + options.windowMs - options.now());
    },
    recordFailure: (address) => {
      const times = [...recent(address), options.now()].slice(-options.maxFailures);
      failures.delete(address);
      failures.set(address, times);
      while (failures.size > maxAddresses) {
        const first = failures.keys().next();
        if (first.done) break;
        failures.delete(first.value);
      }
    },
    recordSuccess: (address) => {
      failures.delete(address);
    },
  };
};
