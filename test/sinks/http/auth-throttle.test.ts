import { describe, expect, it } from 'vitest';
import { createFailureLimiter } from '../../../src/sinks/http/auth-throttle.js';

const clock = () => {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

describe('createFailureLimiter (token bucket on wrong tokens)', () => {
  it('answers the first maxFailures wrong tokens, then asks to wait until one try has refilled', () => {
    const time = clock();
    const limiter = createFailureLimiter({ maxFailures: 3, windowMs: 60_000, now: time.now });
    expect([limiter.recordFailure('a'), limiter.recordFailure('a'), limiter.recordFailure('a')]).toEqual([0, 0, 0]);
    // One try refills every 20 s.
    expect(limiter.recordFailure('a')).toBe(20_000);
    expect(limiter.recordFailure('b')).toBe(0);
    time.advance(20_000);
    expect(limiter.recordFailure('a')).toBe(0);
    expect(limiter.recordFailure('a')).toBe(20_000);
  });

  it('refills completely after a quiet window, never beyond maxFailures', () => {
    const time = clock();
    const limiter = createFailureLimiter({ maxFailures: 2, windowMs: 1_000, now: time.now });
    limiter.recordFailure('a');
    limiter.recordFailure('a');
    time.advance(10_000);
    expect([limiter.recordFailure('a'), limiter.recordFailure('a')]).toEqual([0, 0]);
    expect(limiter.recordFailure('a')).toBeGreaterThan(0);
  });

  it('keeps at most maxAddresses entries, dropping the least recently failed', () => {
    const time = clock();
    const limiter = createFailureLimiter({ maxFailures: 1, windowMs: 60_000, now: time.now, maxAddresses: 2 });
    limiter.recordFailure('a');
    limiter.recordFailure('b');
    limiter.recordFailure('c');
    expect(limiter.recordFailure('a')).toBe(0);
    expect(limiter.recordFailure('c')).toBeGreaterThan(0);
  });
});
