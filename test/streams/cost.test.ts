import { afterEach, describe, expect, it } from 'vitest';
import { costSource, estimateCost, priceFor, sessionCost, usePriceOverrides } from '../../src/streams/cost.js';

const M = 1_000_000;
const tokens = (input: number, output = 0, cacheCreation = 0, cacheRead = 0) => ({ input, output, cacheCreation, cacheRead });
/** USD per million tokens of a model's input and output, as the table holds them. */
const rates = (model: string) => {
  const p = priceFor(model);
  return p && [p.input_cost_per_token * M, p.output_cost_per_token * M].map((r) => Math.round(r * 1000) / 1000);
};

afterEach(() => usePriceOverrides({}));

describe('cost', () => {
  it.each([
    ['claude-sonnet-4-5', [3, 15]],
    ['claude-sonnet-4-5-20250929', [3, 15]],
    ['Claude-Opus-4-5', [5, 25]],
    ['claude-opus-4-1', [15, 75]],
    ['anthropic/claude-haiku-4-5', [1, 5]],
    ['claude-sonnet-4-5@20250929', [3, 15]],
    ['claude-opus-4-6[1m]', [5, 25]],
    ['claude-sonnet-4', [3, 15]],
    ['gpt-5', [1.25, 10]],
    ['openai/gpt-5.3-codex', [1.75, 14]],
    ['gpt-5.5', [5, 30]],
    ['gpt-5-2025-08-07', [1.25, 10]],
    ['gemini-2.5-pro', [1.25, 10]],
    ['google/gemini-2.5-pro', [1.25, 10]],
    ['grok-4', [3, 15]],
    ['kimi-k2.5', [0.6, 3]],
    ['deepseek-v4-flash', [0.14, 0.28]],
  ] as const)('%j is priced from the table (%j per million)', (model, expected) => {
    expect(rates(model)).toEqual(expected);
  });

  it.each(['', 'default', 'claude-sonnet-9', 'gpt-6', 'my-local-llama', '<synthetic>'])('%j has no price, not another model\'s', (model) => {
    expect(priceFor(model)).toBeUndefined();
    expect(estimateCost(model, tokens(M, M))).toBeNull();
    expect(sessionCost(model, tokens(M, M), 0)).toBe(0);
    expect(costSource(model, 0)).toBeNull();
  });

  it('prices cache writes and reads at the table\'s rates', () => {
    expect(estimateCost('claude-sonnet-4-5', tokens(M, M, M, M))).toBeCloseTo(3 + 15 + 3.75 + 0.3, 9);
    expect(estimateCost('gpt-5.3-codex', tokens(600_000, 0, 0, 400_000))).toBeCloseTo(0.6 * 1.75 + 0.4 * 0.175, 9);
  });

  it('prices the part of a message past 200k tokens at the tiered rates where the table has them', () => {
    const above = tokens(100_000, 0, 0, 50_000);
    expect(estimateCost('claude-sonnet-4-5', tokens(300_000, 0, 0, 250_000), above)).toBeCloseTo(0.2 * 3 + 0.1 * 6 + 0.2 * 0.3 + 0.05 * 0.6, 9);
    // No tiered rates: every token at the base rate.
    expect(estimateCost('claude-opus-4-5', tokens(300_000), tokens(100_000))).toBeCloseTo(0.3 * 5, 9);
  });

  it('prefers the cost the agent recorded, and says where each figure comes from', () => {
    expect(sessionCost('claude-sonnet-4-5', tokens(M), 0.42)).toBe(0.42);
    expect(costSource('claude-sonnet-4-5', 0.42)).toBe('agent');
    expect(costSource('default', 0.42)).toBe('agent');
    expect(sessionCost('claude-sonnet-4-5', tokens(M), 0)).toBeCloseTo(3, 9);
    expect(costSource('claude-sonnet-4-5', 0)).toBe('price-table');
  });

  it('uses the config\'s prices before the table, per million tokens', () => {
    usePriceOverrides({ 'My-Local-Llama': { input: 1, output: 2 }, 'claude-sonnet-4-5': { input: 10, output: 20, cache_read: 1 } });
    expect(estimateCost('my-local-llama', tokens(M, M, M, M))).toBeCloseTo(1 + 2 + 1 + 1, 9);
    expect(estimateCost('claude-sonnet-4-5', tokens(0, 0, 0, M))).toBeCloseTo(1, 9);
    usePriceOverrides({});
    expect(priceFor('my-local-llama')).toBeUndefined();
  });
});
