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
