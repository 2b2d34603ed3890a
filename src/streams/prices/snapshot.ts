import { z } from 'zod';

/**
 * The shipped price table: a trimmed copy of LiteLLM's `model_prices_and_context_window.json`
 * (the table ccusage prices from), rebuilt by `npm run prices:refresh`. Rates are USD per token,
 * under LiteLLM's own field names, so an entry can be compared with the upstream file by eye.
 */
const PRICE_FIELDS = [
  'input_cost_per_token',
  'output_cost_per_token',
  'cache_creation_input_token_cost',
  'cache_creation_input_token_cost_above_1hr',
  'cache_read_input_token_cost',
  'output_cost_per_reasoning_token',
  'input_cost_per_token_above_200k_tokens',
  'output_cost_per_token_above_200k_tokens',
  'cache_creation_input_token_cost_above_200k_tokens',
  'cache_read_input_token_cost_above_200k_tokens',
] as const;

type PriceField = (typeof PRICE_FIELDS)[number];

/** The providers whose models our agents run (Claude, GPT, Gemini, Grok, Kimi, DeepSeek, Qwen). */
export const PRICE_PROVIDERS = ['anthropic', 'openai', 'gemini', 'xai', 'moonshot', 'deepseek', 'dashscope'] as const;

/** Entries that are not priced per text token (images, audio, embeddings) are left out. */
const TEXT_MODES: readonly (string | undefined)[] = ['chat', 'responses', undefined];

const rate = z.number().nonnegative().finite();

const modelPriceSchema = z
  .object({
    provider: z.enum(PRICE_PROVIDERS),
    input_cost_per_token: rate,
    output_cost_per_token: rate,
    ...Object.fromEntries(PRICE_FIELDS.slice(2).map((field) => [field, rate.optional()])),
  })
  .strict() as z.ZodType<ModelPrice>;

export type ModelPrice = { readonly provider: (typeof PRICE_PROVIDERS)[number]; readonly input_cost_per_token: number; readonly output_cost_per_token: number } & {
  readonly [F in Exclude<PriceField, 'input_cost_per_token' | 'output_cost_per_token'>]?: number;
};

export const priceSnapshotSchema = z
  .object({
    source: z.url(),
    /** When the upstream file was read (its own `last_updated` when it has one). */
    updated: z.string().min(1),
    models: z.record(z.string().min(1), modelPriceSchema),
  })
  .strict();

export type PriceSnapshot = z.infer<typeof priceSnapshotSchema>;

export const LITELLM_PRICES_URL = 'https://raw.githubusercontent.com/BerriAI/litellm/main/model_prices_and_context_window.json';

const upstreamEntry = z.looseObject({ litellm_provider: z.string(), mode: z.string().optional(), input_cost_per_token: z.number().optional(), output_cost_per_token: z.number().optional() });

/** The snapshot of an upstream table: the text-token models of our providers, the price fields only. */
export const trimUpstream = (upstream: Record<string, unknown>, updated: string): PriceSnapshot => {
  const models: Record<string, ModelPrice> = {};
  for (const name of Object.keys(upstream).sort()) {
    const parsed = upstreamEntry.safeParse(upstream[name]);
    if (!parsed.success) continue;
    const entry = parsed.data as Record<string, unknown> & z.infer<typeof upstreamEntry>;
    const provider = PRICE_PROVIDERS.find((p) => p === entry.litellm_provider);
    if (provider === undefined || !TEXT_MODES.includes(entry.mode) || entry.input_cost_per_token === undefined || entry.output_cost_per_token === undefined) continue;
    const kept: Record<string, unknown> = { provider };
    for (const field of PRICE_FIELDS) if (typeof entry[field] === 'number') kept[field] = entry[field];
    models[name] = kept as ModelPrice;
  }
  return { source: LITELLM_PRICES_URL, updated, models };
};

/** One model a line: the file stays small and a refresh's diff shows each changed model. */
export const formatSnapshot = (snapshot: PriceSnapshot): string => {
  const lines = Object.entries(snapshot.models).map(([name, price]) => `    ${JSON.stringify(name)}: ${JSON.stringify(price)}`);
  return `{\n  "source": ${JSON.stringify(snapshot.source)},\n  "updated": ${JSON.stringify(snapshot.updated)},\n  "models": {\n${lines.join(',\n')}\n  }\n}\n`;
};
