import { describe, expect, it } from 'vitest';
import { createFailureLimiter } from '../../../src/sinks/http/auth-throttle.js';

const clock = () => {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

describe('createFailureLimiter', () => {
  it('blocks an address after maxFailures within the window, until the oldest failure ages out', () => {
    const time = clock();
    const limiter = createFailureLimiter({ maxFailures: 3, windowMs: 60_000, now: time.now });
    limiter.recordFailure('a');
    time.advance(10_000);
    limiter.recordFailure('a');
    expect(limiter.retryAfterMs('a')).toBe(0);
    limiter.recordFailure('a');
    expect(limiter.retryAfterMs('a')).toBe(50_000);
    expect(limiter.retryAfterMs('b')).toBe(0);
    time.advance(50_000);
    expect(limiter.retryAfterMs('a')).toBe(0);
  });

  it('forgets failures older than the window and resets on success', () => {
    const time = clock();
    const limiter = createFailureLimiter({ maxFailures: 2, windowMs: 1_000, now: time.now });
    limiter.recordFailure('a');
    time.advance(1_500);
    limiter.recordFailure('a');
    expect(limiter.retryAfterMs('a')).toBe(0);
    limiter.recordSuccess('a');
    limiter.recordFailure('a');
    expect(limiter.retryAfterMs('a')).toBe(0);
  });

  it('keeps at most maxAddresses entries, dropping the least recently failed', () => {
    const time = clock();
    const limiter = createFailureLimiter({ maxFailures: 1, windowMs: 60_000, now: time.now, maxAddresses: 2 });
    limiter.recordFailure('a');
    limiter.recordFailure('b');
    limiter.recordFailure('c');
    expect(limiter.retryAfterMs('a')).toBe(0);
    expect(limiter.retryAfterMs('b')).toBeGreaterThan(0);
    expect(limiter.retryAfterMs('c')).toBeGreaterThan(0);
  });
});
