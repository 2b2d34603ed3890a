import type { TokenCounts } from '../core/session.js';

/** USD per million tokens. */
export interface Price {
  readonly input: number;
  readonly output: number;
}

/**
 * Prices by the first case-insensitive substring of the model name (docs/formats/README.md).
 * Order matters: `gpt-4o` must be tried before `gpt-4`. A static estimate, not a bill.
 */
export const PRICE_TABLE: readonly (readonly [substring: string, price: Price])[] = [
  ['opus', { input: 15, output: 75 }],
  ['haiku', { input: 1, output: 5 }],
  ['gemini', { input: 2, output: 10 }],
  ['gpt-4o', { input: 2.5, output: 10 }],
  ['gpt-4', { input: 10, output: 30 }],
  ['gpt-5', { input: 2.5, output: 10 }],
];

/** Sonnet-level rates for everything else (sonnet, grok, kimi, unknown or empty model names). */
export const DEFAULT_PRICE: Price = { input: 3, output: 15 };

export const priceFor = (model: string): Price => {
  const name = model.toLowerCase();
  return PRICE_TABLE.find(([substring]) => name.includes(substring))?.[1] ?? DEFAULT_PRICE;
};

/**
 * Estimated cost: input at the input rate, cache writes at 1.25x, cache reads at 0.1x, output at
 * the output rate. Counters are disjoint by contract: the codex source already takes its cached
 * tokens out of `input` (codex reports them as a subset: left in, they would be paid twice).
 */
export const estimateCost = (model: string, tokens: TokenCounts): number => {
  const price = priceFor(model);
  const perToken = (rate: number): number => rate / 1_000_000;
  return (
    tokens.input * perToken(price.input) +
    tokens.cacheCreation * perToken(price.input * 1.25) +
    tokens.cacheRead * perToken(price.input * 0.1) +
    tokens.output * perToken(price.output)
  );
};

/** Shown cost: what the agent recorded when it did, else the estimate. */
export const sessionCost = (model: string, tokens: TokenCounts, recordedCostUsd: number): number =>
  recordedCostUsd > 0 ? recordedCostUsd : estimateCost(model, tokens);
