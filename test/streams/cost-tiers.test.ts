import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/core/session.js';
import { initialFoldState, reduceSessions } from '../../src/streams/sessions-reducer.js';
import { toSummary } from '../../src/streams/views.js';

const ref = { agent: 'claude' as const, sessionId: 's' };
const usage = (messageId: string, input: number, cacheRead: number): SessionEvent => ({ type: 'usage', ...ref, at: 1, messageId, tokens: { input, output: 0, cacheCreation: 0, cacheRead } });
const fold = (events: SessionEvent[]) => [...reduceSessions(initialFoldState([]), [{ type: 'meta', ...ref, patch: { model: 'claude-sonnet-4-5' } }, ...events]).state.sessions.values()][0];

describe('tiered prices, per message', () => {
  it('prices only the part of a message past 200k tokens at the tiered rate, however many messages add up past it', () => {
    // Two messages of 150k cache reads: none past the tier, though the session holds 300k.
    const small = fold([usage('m1', 0, 150_000), usage('m2', 0, 150_000)]);
    expect(small?.tokensAboveTier.cacheRead).toBe(0);
    expect(small && toSummary(small, { now: 1 }).cost_usd).toBeCloseTo(0.3 * 0.3, 6);
    // One message of 300k cache reads: 100k of it past the tier ($0.60/M instead of $0.30/M).
    const large = fold([usage('m1', 0, 300_000)]);
    expect(large?.tokensAboveTier.cacheRead).toBe(100_000);
    expect(large && toSummary(large, { now: 1 }).cost_usd).toBeCloseTo(0.2 * 0.3 + 0.1 * 0.6, 6);
  });

  it('a message written again replaces its part past the tier', () => {
    const state = fold([usage('m1', 0, 300_000), usage('m1', 0, 250_000)]);
    expect(state?.tokensAboveTier.cacheRead).toBe(50_000);
    expect(state?.tokens.cacheRead).toBe(250_000);
  });
});

describe('cache writes kept for an hour', () => {
  const writes = (messageId: string, cacheCreation: number, hour: number): SessionEvent => ({
    type: 'usage',
    ...ref,
    at: 1,
    messageId,
    tokens: { input: 0, output: 0, cacheCreation, cacheRead: 0, ...(hour > 0 ? { cacheCreation1h: hour } : {}) },
  });

  it('prices one-hour writes at their own rate and five-minute writes at theirs', () => {
    // claude-sonnet-4-5: $3.75/M for five-minute writes, $6/M for one-hour writes.
    const state = fold([writes('m1', 100_000, 40_000), writes('m2', 50_000, 0)]);
    expect(state?.tokens).toEqual({ input: 0, output: 0, cacheCreation: 150_000, cacheRead: 0, cacheCreation1h: 40_000 });
    expect(state && toSummary(state, { now: 1 }).cost_usd).toBeCloseTo(0.11 * 3.75 + 0.04 * 6, 6);
  });

  it('a message written again replaces its one-hour part, and no part leaves no field', () => {
    const state = fold([writes('m1', 100_000, 40_000), writes('m1', 100_000, 0)]);
    expect(state?.tokens).toEqual({ input: 0, output: 0, cacheCreation: 100_000, cacheRead: 0 });
    expect(state && toSummary(state, { now: 1 }).cost_usd).toBeCloseTo(0.1 * 3.75, 6);
  });

  it('past the tier, a one-hour write costs its rate scaled as the five-minute rate is', () => {
    // 300k one-hour writes in one message: 100k past the tier at 6 x (7.5 / 3.75) = $12/M.
    const state = fold([writes('m1', 300_000, 300_000)]);
    expect(state?.tokensAboveTier.cacheCreation1h).toBe(100_000);
    expect(state && toSummary(state, { now: 1 }).cost_usd).toBeCloseTo(0.2 * 6 + 0.1 * 12, 6);
  });
});
