import { addTokens, ZERO_TOKENS, type CostSource, type SessionState, type TokenCounts } from '../core/session.js';
import shipped from './prices/litellm-prices.json' with { type: 'json' };
import { findModelPrice } from './prices/match.js';
import type { ModelPrice, PriceSnapshot } from './prices/snapshot.js';

/** A price the user gives for a model the table lacks (or prices otherwise): USD per million tokens. */
interface UserPrice {
  readonly input: number;
  readonly output: number;
  /** Cache writes; the input rate when absent. */
  readonly cache_write?: number | undefined;
  /** Cache reads; the input rate when absent. */
  readonly cache_read?: number | undefined;
}

export type PriceOverrides = Readonly<Record<string, UserPrice>>;


/** Per message, tokens of each kind above this count are billed at the table's `_above_200k_tokens` rates. */
export const TIER_TOKENS = 200_000;

const models = (shipped as PriceSnapshot).models;
let overrides: ReadonlyMap<string, ModelPrice> = new Map();
let resolved = new Map<string, ModelPrice | null>();

const perToken = (usdPerMillion: number): number => usdPerMillion / 1_000_000;

/**
 * The config's `prices`, for every estimate made after this call. Process-wide because the fold
 * (sub-agent usage) and every view price usage: the config is loaded once per process, above them.
 */
export const usePriceOverrides = (prices: PriceOverrides): void => {
  overrides = new Map(
    Object.entries(prices).map(([model, p]): [string, ModelPrice] => [
      model.trim().toLowerCase(),
      {
        provider: 'openai',
        input_cost_per_token: perToken(p.input),
        output_cost_per_token: perToken(p.output),
        cache_creation_input_token_cost: perToken(p.cache_write ?? p.input),
        cache_read_input_token_cost: perToken(p.cache_read ?? p.input),
      },
    ]),
  );
  resolved = new Map();
};

/** The price of a model name as an agent wrote it (the user's override first), or undefined when nobody knows it. */
export const priceFor = (model: string): ModelPrice | undefined => {
  let hit = resolved.get(model);
  if (hit === undefined) {
    hit = overrides.get(model.trim().toLowerCase()) ?? findModelPrice(model, models) ?? null;
    resolved.set(model, hit);
  }
  return hit ?? undefined;
};

/** `count` tokens, of which `above` were past the tier of their message. */
const tiered = (count: number, above: number, base: number, over: number | undefined): number =>
  over === undefined ? count * base : (count - above) * base + above * over;

/**
 * Cache writes: the five-minute ones at the cache-write rate, the one-hour ones at theirs (the
 * five-minute rate where the table has none). Past the tier, a one-hour write costs its rate
 * scaled as the five-minute rate is past the tier.
 */
const cacheWrites = (p: ModelPrice, tokens: TokenCounts, aboveTier: TokenCounts): number => {
  const short = p.cache_creation_input_token_cost ?? p.input_cost_per_token;
  const shortOver = p.cache_creation_input_token_cost_above_200k_tokens;
  const long = tokens.cacheCreation1h ?? 0;
  const longAbove = Math.min(long, aboveTier.cacheCreation1h ?? 0);
  const longRate = p.cache_creation_input_token_cost_above_1hr ?? short;
  const longOver = shortOver === undefined || short === 0 ? undefined : (longRate * shortOver) / short;
  return (
    tiered(tokens.cacheCreation - long, Math.max(0, aboveTier.cacheCreation - longAbove), short, shortOver) +
    tiered(long, longAbove, longRate, longOver)
  );
};

/**
 * Estimated cost of disjoint counters (sources take cached input out of `input`, and count
 * reasoning as output, as vendors bill it), or null when the model has no known price. `aboveTier`
 * is the part of the counters that lay past TIER_TOKENS in its own message. Missing cache rates
 * read as the input rate: an estimate never leaves out what was spent.
 */
export const estimateCost = (model: string, tokens: TokenCounts, aboveTier: TokenCounts = ZERO_TOKENS): number | null => {
  const p = priceFor(model);
  if (p === undefined) return null;
  const input = p.input_cost_per_token;
  return (
    tiered(tokens.input, aboveTier.input, input, p.input_cost_per_token_above_200k_tokens) +
    tiered(tokens.output, aboveTier.output, p.output_cost_per_token, p.output_cost_per_token_above_200k_tokens) +
    cacheWrites(p, tokens, aboveTier) +
    tiered(tokens.cacheRead, aboveTier.cacheRead, p.cache_read_input_token_cost ?? input, p.cache_read_input_token_cost_above_200k_tokens)
  );
};

/** Shown cost: what the agent recorded when it did, else the estimate, else 0 (see `costSource`). */
export const sessionCost = (model: string, tokens: TokenCounts, recordedCostUsd: number, aboveTier?: TokenCounts): number =>
  recordedCostUsd > 0 ? recordedCostUsd : (estimateCost(model, tokens, aboveTier) ?? 0);

/** Where `sessionCost` of the same arguments comes from. */
export const costSource = (model: string, recordedCostUsd: number): CostSource =>
  recordedCostUsd > 0 ? 'agent' : priceFor(model) !== undefined ? 'price-table' : null;

/** What a session's cost is computed from. */
export type CostedUsage = Pick<SessionState, 'model' | 'tokens' | 'tokensAboveTier' | 'tokensByModel' | 'recordedCostUsd'>;

const minus = (a: TokenCounts, b: TokenCounts): TokenCounts => {
  const rest: TokenCounts = {
    input: Math.max(0, a.input - b.input),
    output: Math.max(0, a.output - b.output),
    cacheCreation: Math.max(0, a.cacheCreation - b.cacheCreation),
    cacheRead: Math.max(0, a.cacheRead - b.cacheRead),
  };
  const hour = Math.max(0, (a.cacheCreation1h ?? 0) - (b.cacheCreation1h ?? 0));
  return hour > 0 ? { ...rest, cacheCreation1h: hour } : rest;
};

/**
 * The estimate of a session's usage: each model's tokens (`tokensByModel`) at its own rates, the
 * tokens no usage named a model for at the session model's; null when no part has a known price.
 */
const estimateUsageCost = (s: CostedUsage): number | null => {
  let known = false;
  let usd = 0;
  let named = ZERO_TOKENS;
  let namedAbove = ZERO_TOKENS;
  for (const [model, part] of Object.entries(s.tokensByModel)) {
    named = addTokens(named, part.tokens);
    namedAbove = addTokens(namedAbove, part.aboveTier);
    const cost = estimateCost(model, part.tokens, part.aboveTier);
    if (cost !== null) [known, usd] = [true, usd + cost];
  }
  const rest = minus(s.tokens, named);
  const restCost = estimateCost(s.model, rest, minus(s.tokensAboveTier, namedAbove));
  if (restCost !== null && (restCost > 0 || !known)) [known, usd] = [true, usd + restCost];
  return known ? usd : null;
};

/** Shown cost of a session's own usage: what the agent recorded when it did, else the estimate, else 0. */
export const usageCost = (s: CostedUsage): number => (s.recordedCostUsd > 0 ? s.recordedCostUsd : (estimateUsageCost(s) ?? 0));

/** Where `usageCost` of the same session comes from. */
export const usageCostSource = (s: CostedUsage): CostSource =>
  costSource(s.model, s.recordedCostUsd) ?? (Object.keys(s.tokensByModel).some((model) => priceFor(model) !== undefined) ? 'price-table' : null);
