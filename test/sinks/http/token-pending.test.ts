import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { allowedHostsFor } from '../../../src/sinks/http/host-check.js';
import { buildServer } from '../../../src/sinks/http/server.js';
import { defaultConfig, detail, makeStore, makeTempEnv, viewsOf } from './helpers.js';

/**
 * The server is built while the token is still being derived (the 600,000 PBKDF2 iterations run
 * behind a listening socket): public routes answer at once; a request that needs the token waits
 * for it and is then judged as always (right: 200, wrong: 401, later 429); a failed derivation is 500.
 */

const TOKEN = 'pending-token-0123456789abcdefghijklmnopqrstu';
const WRONG = 'wrong-token-0123456789abcdefghijklmnopqrstuvw';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A token the test resolves (or rejects) when it chooses: the derivation still running. */
const deferred = (): { promise: Promise<string>; resolve: (token: string) => void; reject: (error: Error) => void } => {
  let resolve: (token: string) => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<string>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
};

const serverWith = async (token: Promise<string>, authLimit?: { maxFailures: number; windowMs: number }): Promise<FastifyInstance> => {
  const temp = await makeTempEnv();
  const { store } = await makeStore(temp.env, viewsOf([detail({ session_id: 's-1' })]));
  const app = await buildServer({
    store,
    token,
    salt: 'pending-salt',
    config: () => defaultConfig(),
    allowedHosts: allowedHostsFor('127.0.0.1'),
    now: () => 0,
    ...(authLimit ? { authLimit } : {}),
  });
  cleanups.push(async () => {
    await app.close();
    store.close();
    await temp.cleanup();
  });
  return app;
};

const bearer = (token: string) => ({ host: '127.0.0.1', authorization: `Bearer ${token}` });

describe('a token still being derived', () => {
  it('answers /api/auth and refuses a missing token at once; right and wrong tokens wait, then 200 and 401', async () => {
    const token = deferred();
    const app = await serverWith(token.promise);

    expect((await app.inject({ url: '/api/auth', headers: { host: '127.0.0.1' } })).json()).toMatchObject({ salt: 'pending-salt', iterations: 600000 });
    // No token at all needs no derivation to refuse.
    expect((await app.inject({ url: '/api/sessions', headers: { host: '127.0.0.1' } })).statusCode).toBe(401);

    const settled: string[] = [];
    const right = app.inject({ url: '/api/sessions', headers: bearer(TOKEN) }).then((res) => (settled.push('right'), res));
    const wrong = app.inject({ url: '/api/sessions', headers: bearer(WRONG) }).then((res) => (settled.push('wrong'), res));
    const wrongQuery = app.inject({ url: `/api/events?token=${WRONG}`, headers: { host: '127.0.0.1' } }).then((res) => (settled.push('query'), res));
    // Another public answer while those wait: the derivation holds nothing else up.
    expect((await app.inject({ url: '/api/auth', headers: { host: '127.0.0.1' } })).statusCode).toBe(200);
    expect(settled).toEqual([]);

    token.resolve(TOKEN);
    const [r, w, q] = await Promise.all([right, wrong, wrongQuery]);
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject([{ session_id: 's-1' }]);
    expect([w.statusCode, w.json()]).toEqual([401, { error: 'invalid token' }]);
    expect(w.headers['www-authenticate']).toBe('Bearer realm="agentwatch"');
    expect(q.statusCode).toBe(401);

    // Once derived, nothing waits any more.
    expect((await app.inject({ url: '/api/stats', headers: bearer(TOKEN) })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/stats', headers: bearer(WRONG) })).statusCode).toBe(401);
  });

  it('wrong tokens that waited for the derivation count against the address like any other (then 429)', async () => {
    const token = deferred();
    const app = await serverWith(token.promise, { maxFailures: 2, windowMs: 60_000 });
    const waiting = [1, 2, 3].map(() => app.inject({ url: '/api/stats', headers: bearer(WRONG) }));
    token.resolve(TOKEN);
    expect((await Promise.all(waiting)).map((res) => res.statusCode)).toEqual([401, 401, 429]);
    // The right token is never limited.
    expect((await app.inject({ url: '/api/stats', headers: bearer(TOKEN) })).statusCode).toBe(200);
  });

  it('a failed derivation answers 500 to the requests that need the token, never 200 or 401', async () => {
    const token = deferred();
    const app = await serverWith(token.promise);
    const waiting = app.inject({ url: '/api/stats', headers: bearer(TOKEN) });
    token.reject(new Error('pbkdf2 failed'));
    const res = await waiting;
    expect([res.statusCode, res.json()]).toEqual([500, { error: 'internal error' }]);
    expect((await app.inject({ url: '/api/auth', headers: { host: '127.0.0.1' } })).statusCode).toBe(200);
  });
});
