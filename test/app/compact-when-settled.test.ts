import { asyncScheduler, Subject } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { compactWhenSettled, QUIET_FOR_MS, SETTLE_CHECK_MS, SETTLE_MAX_MS } from '../../src/app/compact-when-settled.js';
import type { SessionsState } from '../../src/core/contracts.js';

const state = (ready: boolean): SessionsState => ({ sessions: new Map(), diagnostics: {}, ready });

/** Fake time the test advances, and a CPU counter that burns `share` of each elapsed ms. */
const harness = () => {
  const scheduler = asyncScheduler;
  const start = Date.now();
  let cpu = 0;
  let share = 0;
  const advance = (ms: number): void => {
    // Small steps, so CPU is burnt inside the windows the checks look at.
    for (let left = ms; left > 0; left -= 100) {
      const step = Math.min(100, left);
      cpu += step * share;
      vi.advanceTimersByTime(step);
    }
  };
  return { scheduler, cpuMs: () => cpu, busy: (s: number) => (share = s), advance, since: () => Date.now() - start };
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('compactWhenSettled', () => {
  it('compacts once, after the first discovery and QUIET_FOR_MS of quiet, never before ready', () => {
    const h = harness();
    const states = new Subject<SessionsState>();
    let compactions = 0;
    const sub = compactWhenSettled(states, { compact: () => (compactions += 1), cpuMs: h.cpuMs, scheduler: h.scheduler });
    states.next(state(false));
    h.advance(SETTLE_MAX_MS * 2);
    expect(compactions).toBe(0);
    states.next(state(true));
    h.advance(QUIET_FOR_MS - SETTLE_CHECK_MS);
    expect(compactions).toBe(0);
    h.advance(SETTLE_CHECK_MS);
    expect(compactions).toBe(1);
    states.next(state(true));
    h.advance(SETTLE_MAX_MS * 2);
    expect(compactions).toBe(1);
    sub.unsubscribe();
  });

  it('waits while the process is busy after discovery (the cache write), and compacts at SETTLE_MAX_MS at the latest', () => {
    const h = harness();
    const states = new Subject<SessionsState>();
    let compactedAt = -1;
    compactWhenSettled(states, { compact: () => (compactedAt = h.since()), cpuMs: h.cpuMs, scheduler: h.scheduler });
    h.busy(0.9);
    h.advance(1_000);
    states.next(state(true));
    h.advance(SETTLE_MAX_MS - SETTLE_CHECK_MS);
    expect(compactedAt).toBe(-1);
    h.advance(SETTLE_CHECK_MS);
    expect(compactedAt).toBe(1_000 + SETTLE_MAX_MS);
  });

  it('counts quiet from the end of the busy spell', () => {
    const h = harness();
    const states = new Subject<SessionsState>();
    let compactedAt = -1;
    compactWhenSettled(states, { compact: () => (compactedAt = h.since()), cpuMs: h.cpuMs, scheduler: h.scheduler });
    h.busy(0.9);
    states.next(state(true));
    h.advance(4 * SETTLE_CHECK_MS);
    h.busy(0);
    h.advance(QUIET_FOR_MS + SETTLE_CHECK_MS);
    expect(compactedAt).toBe(4 * SETTLE_CHECK_MS + QUIET_FOR_MS);
  });

  it('does nothing once unsubscribed (the monitor stopped first)', () => {
    const h = harness();
    const states = new Subject<SessionsState>();
    let compactions = 0;
    const sub = compactWhenSettled(states, { compact: () => (compactions += 1), cpuMs: h.cpuMs, scheduler: h.scheduler });
    states.next(state(true));
    sub.unsubscribe();
    h.advance(SETTLE_MAX_MS * 2);
    expect(compactions).toBe(0);
  });
});
