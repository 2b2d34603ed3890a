import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { formatSnapshot, PRICE_PROVIDERS, priceSnapshotSchema, trimUpstream } from '../../../src/streams/prices/snapshot.js';

const shipped = new URL('../../../src/streams/prices/litellm-prices.json', import.meta.url);

describe('the shipped price table', () => {
  it('has the shape the pricing code reads, and is written as the refresh script writes it', async () => {
    const text = await readFile(shipped, 'utf8');
    const snapshot = priceSnapshotSchema.parse(JSON.parse(text));
    expect(formatSnapshot(snapshot)).toBe(text);
    expect(Object.keys(snapshot.models).length).toBeGreaterThan(100);
  });

  it('holds every provider our agents use, and current models of each', async () => {
    const { models } = priceSnapshotSchema.parse(JSON.parse(await readFile(shipped, 'utf8')));
    const providers = new Set(Object.values(models).map((m) => m.provider));
    expect([...providers].sort()).toEqual([...PRICE_PROVIDERS].sort());
    for (const name of ['claude-sonnet-4-5', 'claude-opus-4-5', 'gpt-5', 'gpt-5.3-codex', 'gemini/gemini-2.5-pro', 'xai/grok-4', 'moonshot/kimi-k2.5', 'deepseek/deepseek-chat']) {
      expect(models[name], name).toBeDefined();
    }
  });
});

describe('trimUpstream', () => {
  it('keeps the text models of our providers and their price fields only', () => {
    const upstream = {
      sample_spec: { litellm_provider: 'one of ...', mode: 'chat' },
      'claude-x': { litellm_provider: 'anthropic', mode: 'chat', input_cost_per_token: 3e-6, output_cost_per_token: 1.5e-5, cache_read_input_token_cost: 3e-7, supports_vision: true, max_tokens: 64000 },
      'dall-e-3': { litellm_provider: 'openai', mode: 'image_generation', output_cost_per_image: 0.04 },
      'text-embedding-3-small': { litellm_provider: 'openai', mode: 'embedding', input_cost_per_token: 2e-8, output_cost_per_token: 0 },
      'bedrock/claude-x': { litellm_provider: 'bedrock', mode: 'chat', input_cost_per_token: 3e-6, output_cost_per_token: 1.5e-5 },
    };
    expect(trimUpstream(upstream, '2026-07-24').models).toEqual({
      'claude-x': { provider: 'anthropic', input_cost_per_token: 3e-6, output_cost_per_token: 1.5e-5, cache_read_input_token_cost: 3e-7 },
    });
  });
});
