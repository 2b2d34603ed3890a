import { readFile, rm, writeFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sessionNamesPath } from '../../src/config/paths.js';
import { allowedHostsFor } from '../../src/sinks/http/host-check.js';
import { buildServer } from '../../src/sinks/http/server.js';
import { openDeliveryStore, readRecentDeliveries, webhookQueuePath } from '../../src/sinks/webhook/delivery-store.js';
import { defaultConfig, detail, makeStore, makeTempEnv, viewsOf } from '../sinks/http/helpers.js';

/**
 * The API under attack and bad input: nothing crashes, the right client
 * is always served, and every refusal is our `{ error }` shape with a message saying what is wrong.
 */

const TOKEN = 'T'.repeat(43);
const right = { authorization: `Bearer ${TOKEN}` };
const json = { ...right, 'content-type': 'application/json' };
let temp: Awaited<ReturnType<typeof makeTempEnv>>;
let app: FastifyInstance;
let now = 0;

beforeEach(async () => {
  temp = await makeTempEnv();
  const { store } = await makeStore(temp.env, viewsOf([detail({ session_id: 's1' })]));
  now = 0;
  app = await buildServer({
    store,
    token: TOKEN,
    salt: 's',
    config: () => defaultConfig(),
    allowedHosts: allowedHostsFor('127.0.0.1'),
    now: () => now,
    deliveries: (query) => readRecentDeliveries(temp.env, query),
  });
});

afterEach(async () => {
  await app.close();
  await temp.cleanup();
});

describe('wrong tokens never lock out the right one', () => {
  it('10,000 wrong tokens from 127.0.0.1 (40/s): every right request in between is answered 200', async () => {
    const statuses = new Map<number, number>();
    let servedRight = 0;
    for (let i = 0; i < 10_000; i++) {
      const wrong = await app.inject({ url: '/api/stats', headers: { authorization: `Bearer wrong-${i}` } });
      statuses.set(wrong.statusCode, (statuses.get(wrong.statusCode) ?? 0) + 1);
      now += 25;
      // A client polling every 2 s (every 80th wrong token at 40/s).
      if (i % 80 === 0) {
        const ok = await app.inject({ url: '/api/stats', headers: right });
        expect(ok.statusCode).toBe(200);
        servedRight += 1;
      }
    }
    expect(servedRight).toBe(125);
    // Only 401 and 429 for the flood; the bucket lets roughly one per 2 s through after the first 30.
    expect([...statuses.keys()].sort()).toEqual([401, 429]);
    expect(statuses.get(401)).toBeLessThan(30 + 10_000 / 80 + 2);
  });

  it('the right token in ?token= on /api/events is not throttled either', async () => {
    for (let i = 0; i < 100; i++) await app.inject({ url: '/api/events?token=nope' });
    expect((await app.inject({ url: '/api/events?token=nope' })).statusCode).toBe(429);
    const res = await app.inject({ url: `/api/events?token=${TOKEN}`, payloadAsStream: true });
    expect(res.statusCode).toBe(200);
    res.stream().destroy();
  });
});

describe('cross-site ?token= requests', () => {
  it.each([
    [{ 'sec-fetch-site': 'cross-site' }, /Sec-Fetch-Site: cross-site/],
    [{ 'sec-fetch-site': 'same-site' }, /Sec-Fetch-Site: same-site/],
    [{ origin: 'https://evil.example' }, /Origin: https:\/\/evil.example/],
    [{ origin: 'null' }, /Origin: null/],
  ])('%j is refused with 403 and spends none of the address tries', async (headers, message) => {
    for (let i = 0; i < 200; i++) {
      const res = await app.inject({ url: '/api/events?token=guess', headers });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatch(message);
    }
    // Still 30 tries left: a wrong token from a same-origin client is a plain 401.
    for (let i = 0; i < 30; i++) expect((await app.inject({ url: '/api/events?token=typo' })).statusCode).toBe(401);
  });

  it('the dashboard itself (same-origin, or an Origin naming this host) is served', async () => {
    const sameOrigin = await app.inject({ url: `/api/events?token=${TOKEN}`, headers: { 'sec-fetch-site': 'same-origin' }, payloadAsStream: true });
    expect(sameOrigin.statusCode).toBe(200);
    sameOrigin.stream().destroy();
    const origin = await app.inject({
      url: `/api/events?token=${TOKEN}`,
      headers: { origin: 'http://127.0.0.1:7421', host: '127.0.0.1:7421' },
      payloadAsStream: true,
    });
    expect(origin.statusCode).toBe(200);
    origin.stream().destroy();
  });
});

describe('Host header attacks', () => {
  const hosts = ['evil.example', 'evil.example:7421', 'localhost.evil.example', '127.0.0.1.nip.io', '0x7f000001', 'localhost@evil', '[::ffff:7f00:1]x'];
  it.each(hosts)('Host %j is refused (403) before auth, with the right token too', async (host) => {
    const res = await app.inject({ url: '/api/sessions', headers: { ...right, host } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: expect.stringMatching(/host not allowed/) });
  });
});

describe('bad bodies and paths', () => {
  it('a body over the limit is 413 with our shape, and the names file is untouched', async () => {
    const res = await app.inject({ method: 'PUT', url: '/api/sessions/s1/name', headers: json, payload: `{"name":"${'x'.repeat(50_000)}"}` });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: expect.stringMatching(/too large/) });
    await expect(readFile(sessionNamesPath(temp.env))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a JSON body with __proto__ is answered normally (the key is removed), not "Body is not valid JSON"', async () => {
    const res = await app.inject({ method: 'PUT', url: '/api/sessions/s1/name', headers: json, payload: '{"name":"ok","__proto__":{"polluted":true}}' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ session_id: 's1', custom_name: 'ok' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const only = await app.inject({ method: 'PUT', url: '/api/sessions/s1/name', headers: json, payload: '{"__proto__":{"name":"x"}}' });
    expect(only.statusCode).toBe(400);
    expect(only.json().error).toMatch(/name must be a string/);
  });

  it('a rename with invalid UTF-8 is refused with 400 and nothing is stored', async () => {
    const payload = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
    const res = await app.inject({ method: 'PUT', url: '/api/sessions/s1/name', headers: json, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'body is not valid UTF-8' });
    await expect(readFile(sessionNamesPath(temp.env))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('not-JSON is a 400 with our shape', async () => {
    const res = await app.inject({ method: 'PUT', url: '/api/sessions/s1/name', headers: json, payload: '{"name":' });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(['error']);
  });

  it.each([600, 5_000, 60_000])('a %i-character session id gets our { error } shape', async (length) => {
    for (const method of ['GET', 'DELETE'] as const) {
      const url = method === 'GET' ? `/api/sessions/${'x'.repeat(length)}` : `/api/sessions/${'x'.repeat(length)}/name`;
      const res = await app.inject({ method, url, headers: right });
      expect([400, 404, 414]).toContain(res.statusCode);
      expect(Object.keys(res.json())).toEqual(['error']);
      expect(res.json().error.length).toBeLessThan(120);
    }
  });
});

describe('GET /api/webhooks/deliveries', () => {
  it('is [] before any delivery, needs the token, and lists recent deliveries (filter by webhook, bounded limit)', async () => {
    expect((await app.inject({ url: '/api/webhooks/deliveries' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/webhooks/deliveries', headers: right })).json()).toEqual([]);
    const queue = openDeliveryStore(webhookQueuePath(temp.env));
    queue.enqueue({ id: 'a1', webhook: 'ci', body: '{"n":1}', createdAt: Date.UTC(2026, 10, 21) });
    queue.enqueue({ id: 'b1', webhook: 'chat', body: '{"n":2}', createdAt: Date.UTC(2026, 10, 21) });
    queue.markDelivered('a1', { at: Date.UTC(2026, 10, 21, 0, 0, 1), status: 204, error: null, latencyMs: 12 });
    queue.close();
    const all = (await app.inject({ url: '/api/webhooks/deliveries', headers: right })).json() as { id: string }[];
    expect(all.map((d) => d.id)).toEqual(['b1', 'a1']);
    const ci = await app.inject({ url: '/api/webhooks/deliveries?webhook=ci', headers: right });
    expect(ci.json()).toEqual([
      {
        id: 'a1',
        webhook: 'ci',
        state: 'delivered',
        attempts: 1,
        status: 204,
        error: null,
        latency_ms: 12,
        created_at: '2026-11-21T00:00:00.000Z',
        last_attempt_at: '2026-11-21T00:00:01.000Z',
        body: '{"n":1}',
      },
    ]);
    const damaged = webhookQueuePath(temp.env);
    await rm(`${damaged}-wal`, { force: true });
    await rm(`${damaged}-shm`, { force: true });
    await writeFile(damaged, 'not a database');
    const unreadable = await app.inject({ url: '/api/webhooks/deliveries', headers: right });
    expect(unreadable.statusCode).toBe(503);
    expect(unreadable.json().error).toMatch(/^the webhook delivery log cannot be read: /);
    const bad = await app.inject({ url: '/api/webhooks/deliveries?limit=0', headers: right });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'limit must be at least 1' });
  });
});
