import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { LiveIndex } from '../../../src/search/live.js';
import { registerSearchRoute } from '../../../src/sinks/http/search-route.js';

/** An index that answers nothing and records the limits it was asked for. */
const recordingIndex = (limits: number[], indexing = false): LiveIndex => ({
  tap: () => undefined,
  follow: () => undefined,
  search: async (_query, options) => {
    limits.push(options.limit);
    return [];
  },
  indexing: () => indexing,
  close: async () => undefined,
});

describe('GET /api/search ?limit=', () => {
  it('takes 1 to 10000 as `search --limit` does, and says so for a number outside them; a value that is no whole number says that', async () => {
    const limits: number[] = [];
    const app = Fastify();
    registerSearchRoute(app, recordingIndex(limits));
    const get = (limit: string) => app.inject({ method: 'GET', url: `/api/search?q=bucket&limit=${limit}` });
    for (const ok of ['1', '200', '500', '10000']) expect((await get(ok)).statusCode).toBe(200);
    expect(limits).toEqual([1, 200, 500, 10000]);
    for (const outside of ['0', '10001']) {
      const answer = await get(outside);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({ error: 'limit must be from 1 to 10000' });
    }
    for (const notWhole of ['2.5', 'ten', '1e3', '0x10', '-1', '']) {
      const answer = await get(notWhole);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toEqual({ error: 'limit must be a whole number' });
    }
    await app.close();
  });
});

describe('GET /api/search ?agent=', () => {
  it('an unknown agent is named as the route parameter it came in, not as the CLI flag', async () => {
    const app = Fastify();
    registerSearchRoute(app, recordingIndex([]));
    const answer = await app.inject({ method: 'GET', url: '/api/search?q=bucket&agent=claude,bogus' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({ error: 'Invalid value for agent: "claude,bogus" (a comma-separated list of amp, claude, codex, copilot, crush, cursor, droid, gemini, goose, grok, kilo, kimi, opencode, pi, qwen)' });
    await app.close();
  });
});

describe('GET /api/search while the index catches up', () => {
  it('answers what the index holds so far and says it is still indexing; not once caught up', async () => {
    for (const indexing of [true, false]) {
      const app = Fastify();
      registerSearchRoute(app, recordingIndex([], indexing));
      const answer = await app.inject({ method: 'GET', url: '/api/search?q=bucket' });
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual([]);
      expect(answer.headers['agentwatch-indexing']).toBe(indexing ? 'catching-up' : undefined);
      await app.close();
    }
  });
});
