import { describe, expect, it } from 'vitest';
import { estimateCost, priceFor, sessionCost } from '../../src/streams/cost.js';

const M = 1_000_000;

describe('cost', () => {
  it.each([
    ['claude-opus-4-1', 15, 75],
    ['Claude-3-5-Haiku', 1, 5],
    ['gemini-2.5-pro', 2, 10],
    ['gpt-4o-mini', 2.5, 10],
    ['gpt-4.1', 10, 30],
    ['gpt-5.2-codex', 2.5, 10],
    ['claude-sonnet-4-5', 3, 15],
    ['', 3, 15],
  ] as const)('%j is priced %d/%d per million', (model, input, output) => {
    expect(priceFor(model)).toEqual({ input, output });
  });

  it('prices cache writes at 1.25x and cache reads at 0.1x of the input rate', () => {
    expect(estimateCost('claude-sonnet-4-5', { input: M, output: M, cacheCreation: M, cacheRead: M })).toBeCloseTo(3 + 15 + 3.75 + 0.3, 9);
    expect(estimateCost('gpt-5.2-codex', { input: 600_000, output: 0, cacheCreation: 0, cacheRead: 400_000 })).toBeCloseTo(0.6 * 2.5 + 0.4 * 0.25, 9);
  });

  it('prefers the cost the agent recorded', () => {
    const tokens = { input: M, output: 0, cacheCreation: 0, cacheRead: 0 };
    expect(sessionCost('claude-sonnet-4-5', tokens, 0.42)).toBe(0.42);
    expect(sessionCost('claude-sonnet-4-5', tokens, 0)).toBeCloseTo(3, 9);
  });
});
