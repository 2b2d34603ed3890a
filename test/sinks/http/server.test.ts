import { mkdir, readFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessionNamesPath } from '../../../src/config/paths.js';
import { buildServer } from '../../../src/sinks/http/server.js';
import { deriveToken } from '../../../src/sinks/http/token.js';
import { allowedHostsFor } from '../../../src/sinks/http/host-check.js';
import { defaultConfig, detail, makeStore, makeTempEnv, viewsOf } from './helpers.js';

const config = defaultConfig({
  api_passphrase: 'a passphrase long enough',
  webhooks: [{ name: 'hook', url: 'http://127.0.0.1:9/x', secret: 'webhook-secret' }],
});
let token: string;
let temp: Awaited<ReturnType<typeof makeTempEnv>>;
let app: FastifyInstance;
let views$: Awaited<ReturnType<typeof makeStore>>['views$'];
let now = 0;

const sessions = [
  detail({ session_id: 's-new', cwd: '/work/app', activity: 'writing', is_active: true }),
  detail({ session_id: 's-old', cwd: '/work/application', activity: 'waiting', agent: 'codex' }),
];
const hidden = detail({ session_id: 's-hidden', cwd: '/tmp/old' });

beforeAll(async () => {
  token = await deriveToken(config.api_passphrase, config.api_salt);
});

beforeEach(async () => {
  temp = await makeTempEnv();
  const made = await makeStore(temp.env, viewsOf(sessions, [hidden]));
  const { store } = made;
  views$ = made.views$;
  now = 0;
  app = await buildServer({ store, token, salt: config.api_salt, config: () => config, allowedHosts: allowedHostsFor('127.0.0.1'), now: () => now });
  return async () => {
    await app.close();
    store.close();
    await temp.cleanup();
  };
});

afterAll(() => undefined);

const auth = () => ({ authorization: `Bearer ${token}` });

describe('public routes', () => {
  it('GET /api/auth returns the salt and derivation parameters without a token', async () => {
    const res = await app.inject({ url: '/api/auth' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ salt: 'salt-of-test', iterations: 600000, key_length: 32, hash: 'SHA-256', encoding: 'base64url-no-padding' });
  });

  it('GET /api serves the playground with a strict CSP and no CORS header', async () => {
    const res = await app.inject({ url: '/api' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('crypto.subtle');
    expect(res.headers['content-security-policy']).toMatch(/script-src 'sha256-/);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

// lazyagent answers every origin on its routes (Access-Control-Allow-Origin: *, preflight 204
// without the token); agentwatch does so on those routes only, after the Host check.
describe('CORS on lazyagent routes', () => {
  const origin = 'https://client.example';
  const cors = (methods: string) => ({
    'access-control-allow-origin': '*',
    'access-control-allow-methods': methods,
    'access-control-allow-headers': 'Authorization, Content-Type',
  });
  const corsOf = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('access-control-')));

  it.each([
    ['/api/auth', 'GET, OPTIONS'],
    ['/api/sessions', 'GET, OPTIONS'],
    ['/api/sessions/s-new', 'GET, OPTIONS'],
    ['/api/sessions/s-new/name', 'PUT, DELETE, OPTIONS'],
    ['/api/stats', 'GET, OPTIONS'],
    ['/api/config', 'GET, OPTIONS'],
    ['/api/events', 'GET, OPTIONS'],
  ])('OPTIONS %s: 204 without a token, allowing %s', async (url, methods) => {
    const res = await app.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(corsOf(res.headers)).toEqual(cors(methods));
  });

  it('answers carry the headers: the list (sent as bytes), a detail, a rename, the salt, and a 401', async () => {
    expect(corsOf((await app.inject({ url: '/api/sessions', headers: { ...auth(), origin } })).headers)).toEqual(cors('GET, OPTIONS'));
    expect(corsOf((await app.inject({ url: '/api/sessions?filter=waiting', headers: { ...auth(), origin } })).headers)).toEqual(cors('GET, OPTIONS'));
    expect(corsOf((await app.inject({ url: '/api/sessions/s-new', headers: { ...auth(), origin } })).headers)).toEqual(cors('GET, OPTIONS'));
    const put = await app.inject({ method: 'PUT', url: '/api/sessions/s-new/name', headers: { ...auth(), origin }, payload: { name: 'x' } });
    expect(corsOf(put.headers)).toEqual(cors('PUT, DELETE, OPTIONS'));
    expect(corsOf((await app.inject({ url: '/api/auth', headers: { origin } })).headers)).toEqual(cors('GET, OPTIONS'));
    // The page has to read the 401 to ask for the passphrase; the token is still required.
    const missing = await app.inject({ url: '/api/stats', headers: { origin } });
    expect(missing.statusCode).toBe(401);
    expect(corsOf(missing.headers)).toEqual(cors('GET, OPTIONS'));
  });

  it('none on a foreign Host (refused first), the playground, or the routes beyond lazyagent (no preflight for them)', async () => {
    const foreign = await app.inject({ method: 'OPTIONS', url: '/api/sessions', headers: { host: 'evil.example:7421', origin } });
    expect(foreign.statusCode).toBe(403);
    expect(corsOf(foreign.headers)).toEqual({});
    expect(corsOf((await app.inject({ url: '/api', headers: { origin } })).headers)).toEqual({});
    for (const url of ['/api/limits', '/api/search', '/api/webhooks/deliveries', '/api/sessions/s-new/actions/resume', '/metrics']) {
      const preflight = await app.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': 'POST' } });
      expect([url, preflight.statusCode, corsOf(preflight.headers)]).toEqual([url, url.startsWith('/api') ? 401 : 404, {}]);
    }
    expect(corsOf((await app.inject({ url: '/api/webhooks/deliveries', headers: { ...auth(), origin } })).headers)).toEqual({});
  });
});

const protectedRoutes = [
  { method: 'GET', url: '/api/sessions' },
  { method: 'GET', url: '/api/sessions/s-new' },
  { method: 'PUT', url: '/api/sessions/s-new/name', payload: { name: 'x' } },
  { method: 'DELETE', url: '/api/sessions/s-new/name' },
  { method: 'GET', url: '/api/stats' },
  { method: 'GET', url: '/api/config' },
  { method: 'GET', url: '/api/nope' },
] as const;

describe('bearer authentication', () => {
  it.each(protectedRoutes)('$method $url: 401 JSON without a token, 401 with a wrong one', async (route) => {
    const missing = await app.inject({ ...route });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toEqual({ error: 'missing token: send Authorization: Bearer <token>' });
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
    const wrong = await app.inject({ ...route, headers: { authorization: `Bearer ${token.slice(0, -1)}x` } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'invalid token' });
  });

  it.each(protectedRoutes)('$method $url: ?token= is refused outside /api/events', async (route) => {
    const res = await app.inject({ ...route, url: `${route.url}?token=${token}` });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toMatch(/accepted on \/api\/events only/);
  });

  it('rejects a non-Bearer scheme', async () => {
    const res = await app.inject({ url: '/api/stats', headers: { authorization: `Basic ${token}` } });
    expect(res.statusCode).toBe(401);
  });

  it('accepts the scheme name in any case (RFC 7235), the token itself exactly', async () => {
    expect((await app.inject({ url: '/api/stats', headers: { authorization: `bearer ${token}` } })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/stats', headers: { authorization: `BEARER ${token}` } })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/stats', headers: { authorization: `Bearer ${token.toUpperCase()}` } })).statusCode).toBe(401);
  });

  it('answers every wrong token of a route-by-route check with 401, then the right token with 200', async () => {
    const routes = ['/api/sessions', '/api/stats', '/api/config', '/api/sessions/x', '/api/sessions?dir=/tmp'];
    for (const url of [...routes, ...routes]) {
      const res = await app.inject({ url, headers: { authorization: 'Bearer wrong' } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'invalid token' });
    }
    expect((await app.inject({ url: '/api/stats', headers: auth() })).statusCode).toBe(200);
  });

  it('slows down wrong tokens after 30 in a minute (429 with Retry-After) but always serves the right token', async () => {
    for (let i = 0; i < 30; i++) {
      const res = await app.inject({ url: '/api/stats', headers: { authorization: 'Bearer wrong' } });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await app.inject({ url: '/api/stats', headers: { authorization: 'Bearer wrong' } });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('2');
    expect(blocked.json().error).toMatch(/too many wrong tokens.*the right token is always accepted/);
    expect((await app.inject({ url: '/api/stats', headers: auth() })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/auth' })).statusCode).toBe(200);
    now += 2_000;
    expect((await app.inject({ url: '/api/stats', headers: { authorization: 'Bearer wrong' } })).statusCode).toBe(401);
  });

  it('does not count requests that present no token', async () => {
    for (let i = 0; i < 8; i++) expect((await app.inject({ url: '/api/stats' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/stats', headers: auth() })).statusCode).toBe(200);
  });
});

describe('hardening', () => {
  it.each(['evil.example:7421', 'localhost.evil.example'])('refuses Host %s (DNS rebinding) before auth', async (host) => {
    const res = await app.inject({ url: '/api/sessions', headers: { ...auth(), host } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/host not allowed/);
    expect((await app.inject({ url: '/api/auth', headers: { host } })).statusCode).toBe(403);
  });

  it.each(['localhost:7421', '127.0.0.1:7421', '[::1]:7421'])('accepts Host %s', async (host) => {
    expect((await app.inject({ url: '/api/stats', headers: { ...auth(), host } })).statusCode).toBe(200);
  });

  it('answers 404 JSON outside /api without a token, and marks responses no-store / nosniff', async () => {
    const root = await app.inject({ url: '/' });
    expect(root.statusCode).toBe(404);
    expect(root.json()).toEqual({ error: 'no route GET /' });
    const stats = await app.inject({ url: '/api/stats', headers: auth() });
    expect(stats.headers['cache-control']).toBe('no-store');
    expect(stats.headers['x-content-type-options']).toBe('nosniff');
  });

  it('limits request bodies to a few KB (413 JSON)', async () => {
    const res = await app.inject({ method: 'PUT', url: '/api/sessions/s-new/name', headers: auth(), payload: { name: 'x'.repeat(5000) } });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: expect.stringMatching(/too large/i) });
  });

  it('refuses names with bidi overrides or zero-width characters, as it refuses controls (400)', async () => {
    for (const name of ['evil\u202etxt.exe', 'ad\u200bmin', 'a\u2066b', 'x\ufeff']) {
      const res = await app.inject({ method: 'PUT', url: '/api/sessions/s-new/name', headers: auth(), payload: { name } });
      expect(res.statusCode, name).toBe(400);
      expect(res.json()).toEqual({ error: expect.stringContaining('name must not contain control, bidi or zero-width characters') });
    }
    const emoji = await app.inject({ method: 'PUT', url: '/api/sessions/s-new/name', headers: auth(), payload: { name: 'pairing 👩\u200d💻' } });
    expect(emoji.statusCode).toBe(200);
  });

  it('never returns the passphrase, the token or webhook secrets', async () => {
    for (const url of ['/api/config', '/api/sessions', '/api/stats', '/api/auth', '/api/sessions/s-new']) {
      const body = (await app.inject({ url, headers: auth() })).body;
      expect(body).not.toContain(config.api_passphrase);
      expect(body).not.toContain(token);
      expect(body).not.toContain('webhook-secret');
    }
  });
});

describe('extend', () => {
  it('adds routes under the same host check and auth', async () => {
    const { store } = await makeStore(temp.env, viewsOf(sessions));
    const extended = await buildServer({
      store,
      token,
      salt: config.api_salt,
      config: () => config,
      allowedHosts: allowedHostsFor('127.0.0.1'),
      extend: (instance) => {
        instance.get('/', { config: { access: 'public' } }, async () => 'dashboard');
        instance.get('/api/extra', async () => ({ ok: true }));
      },
    });
    try {
      expect((await extended.inject({ url: '/' })).body).toBe('dashboard');
      expect((await extended.inject({ url: '/', headers: { host: 'evil.example' } })).statusCode).toBe(403);
      expect((await extended.inject({ url: '/api/extra' })).statusCode).toBe(401);
      expect((await extended.inject({ url: '/api/extra', headers: auth() })).json()).toEqual({ ok: true });
    } finally {
      await extended.close();
      store.close();
    }
  });
});

describe('routes with a valid token', () => {
  it('GET /api/sessions returns summaries, newest first', async () => {
    const res = await app.inject({ url: '/api/sessions', headers: auth() });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.map((s: { session_id: string }) => s.session_id)).toEqual(['s-new', 's-old']);
    expect(Object.keys(body[0])).toEqual([
      'session_id', 'agent', 'cwd', 'short_name', 'agent_name', 'custom_name', 'source', 'activity',
      'is_active', 'model', 'git_branch', 'cost_usd', 'cost_source', 'last_activity', 'total_messages', 'display_name',
      'started_at', 'order_group', 'waiting_since',
    ]);
  });

  it('GET /api/sessions without a query (the fast path) sends what the query path sends, headers included; HEAD too', async () => {
    const fast = await app.inject({ url: '/api/sessions', headers: auth() });
    const parsed = await app.inject({ url: '/api/sessions?', headers: auth() });
    expect(fast.body).toBe(parsed.body);
    for (const name of ['content-type', 'content-length', 'cache-control', 'x-content-type-options']) {
      expect([name, fast.headers[name]]).toEqual([name, parsed.headers[name]]);
    }
    expect(fast.headers['content-type']).toBe('application/json; charset=utf-8');
    const head = await app.inject({ method: 'HEAD', url: '/api/sessions', headers: auth() });
    expect([head.statusCode, head.body, head.headers['content-length']]).toEqual([200, '', fast.headers['content-length']]);
    // The fast path is behind the same host check and auth.
    expect((await app.inject({ url: '/api/sessions' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/sessions', headers: { ...auth(), host: 'evil.example' } })).statusCode).toBe(403);
  });

  it('GET /api/sessions without a query follows renames and list changes (headers rebuilt with the bytes)', async () => {
    const before = await app.inject({ url: '/api/sessions', headers: auth() });
    await app.inject({ method: 'PUT', url: '/api/sessions/s-old/name', headers: auth(), payload: { name: 'A longer name than before' } });
    const after = await app.inject({ url: '/api/sessions', headers: auth() });
    expect(after.json()).toMatchObject([{ session_id: 's-new' }, { session_id: 's-old', custom_name: 'A longer name than before' }]);
    expect(Number(after.headers['content-length'])).toBe(Buffer.byteLength(after.body));
    expect(after.headers['content-length']).not.toBe(before.headers['content-length']);
  });

  it('GET /api/sessions applies search, filter and dir', async () => {
    const get = async (query: string) => (await app.inject({ url: `/api/sessions?${query}`, headers: auth() })).json().map((s: { session_id: string }) => s.session_id);
    expect(await get('dir=%2Fwork%2Fapp')).toEqual(['s-new']);
    expect(await get('filter=waiting')).toEqual(['s-old']);
    expect(await get('filter=active')).toEqual(['s-new']);
    expect(await get('search=APPLICATION')).toEqual(['s-old']);
  });

  it('GET /api/sessions?dir= through a symlink finds the sessions recorded under the real path', async () => {
    const real = path.join(temp.root, 'real', 'proj');
    await mkdir(real, { recursive: true });
    const link = path.join(temp.root, 'link');
    await symlink(real, link);
    const { store } = await makeStore(temp.env, viewsOf([detail({ session_id: 's-real', cwd: path.join(real, 'sub') }), ...sessions]));
    const linked = await buildServer({ store, token, salt: config.api_salt, config: () => config, allowedHosts: allowedHostsFor('127.0.0.1'), now: () => now });
    try {
      const res = await linked.inject({ url: `/api/sessions?dir=${encodeURIComponent(link)}`, headers: auth() });
      expect(res.json().map((s: { session_id: string }) => s.session_id)).toEqual(['s-real']);
    } finally {
      await linked.close();
      store.close();
    }
  });

  it('GET /api/sessions refuses a relative dir and a bad filter with 400', async () => {
    const dir = await app.inject({ url: '/api/sessions?dir=work/app', headers: auth() });
    expect(dir.statusCode).toBe(400);
    expect(dir.json()).toEqual({ error: 'dir must be an absolute path' });
    expect((await app.inject({ url: '/api/sessions?filter=nap', headers: auth() })).statusCode).toBe(400);
  });

  it('GET /api/sessions/:id returns the detail (also outside the window), 404 when unknown', async () => {
    const res = await app.inject({ url: '/api/sessions/s-new', headers: auth() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ session_id: 's-new', resume_command: 'claude --resume x', recent_tools: [] });
    expect((await app.inject({ url: '/api/sessions/s-hidden', headers: auth() })).json().session_id).toBe('s-hidden');
    const missing = await app.inject({ url: '/api/sessions/nope', headers: auth() });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'unknown session "nope"' });
  });

  it('PUT and DELETE /api/sessions/:id/name persist to session-names.json and show in the list', async () => {
    const put = await app.inject({ method: 'PUT', url: '/api/sessions/s-old/name', headers: auth(), payload: { name: '  Billing fix ' } });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ session_id: 's-old', custom_name: 'Billing fix' });
    expect(JSON.parse(await readFile(sessionNamesPath(temp.env), 'utf8'))).toEqual({ 's-old': 'Billing fix' });
    const list = (await app.inject({ url: '/api/sessions?search=billing', headers: auth() })).json();
    expect(list).toMatchObject([{ session_id: 's-old', custom_name: 'Billing fix' }]);

    const del = await app.inject({ method: 'DELETE', url: '/api/sessions/s-old/name', headers: auth() });
    expect(del.json()).toEqual({ session_id: 's-old', custom_name: '' });
    expect(JSON.parse(await readFile(sessionNamesPath(temp.env), 'utf8'))).toEqual({});
  });

  it('PUT name: 400 for a bad body (no name, not JSON, a __proto__ id)', async () => {
    const noName = await app.inject({ method: 'PUT', url: '/api/sessions/s-new/name', headers: auth(), payload: { title: 'x' } });
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toEqual({ error: 'name must be a string' });
    const notJson = await app.inject({ method: 'PUT', url: '/api/sessions/s-new/name', headers: { ...auth(), 'content-type': 'application/json' }, payload: '{nope' });
    expect(notJson.statusCode).toBe(400);
    expect(Object.keys(notJson.json())).toEqual(['error']);
    const notJsonAsText = await app.inject({ method: 'PUT', url: '/api/sessions/s-new/name', headers: { ...auth(), 'content-type': 'text/plain' }, payload: 'Billing fix' });
    expect(notJsonAsText.statusCode).toBe(400);
    expect(Object.keys(notJsonAsText.json())).toEqual(['error']);
    const noBody = await app.inject({ method: 'PUT', url: '/api/sessions/s-new/name', headers: auth() });
    expect(noBody.statusCode).toBe(400);
    const proto = await app.inject({ method: 'PUT', url: '/api/sessions/__proto__/name', headers: auth(), payload: { name: 'x' } });
    expect(proto.statusCode).toBe(400);
    expect(proto.json()).toEqual({ error: 'session id "__proto__" cannot be named' });
    await expect(readFile(sessionNamesPath(temp.env), 'utf8')).rejects.toThrow(/ENOENT/);
  });

  // lazyagent decodes the body as JSON whatever its Content-Type: a browser's fetch with a string
  // body sends text/plain, curl -d sends a form type, a script may send none.
  it.each([
    ['text/plain;charset=UTF-8', 'From a browser'],
    ['application/x-www-form-urlencoded', 'From curl -d'],
    [undefined, 'Without a type'],
  ])('PUT name reads a JSON body sent as %s', async (type, name) => {
    const res = await app.inject({
      method: 'PUT',
      url: '/api/sessions/s-old/name',
      headers: { ...auth(), ...(type ? { 'content-type': type } : {}) },
      body: Buffer.from(JSON.stringify({ name })),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ session_id: 's-old', custom_name: name });
    expect(JSON.parse(await readFile(sessionNamesPath(temp.env), 'utf8'))).toEqual({ 's-old': name });
  });

  it('PUT name with null clears the name, as "" and DELETE do', async () => {
    await app.inject({ method: 'PUT', url: '/api/sessions/s-old/name', headers: auth(), payload: { name: 'Billing fix' } });
    const cleared = await app.inject({ method: 'PUT', url: '/api/sessions/s-old/name', headers: auth(), payload: { name: null } });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual({ session_id: 's-old', custom_name: '' });
    expect(JSON.parse(await readFile(sessionNamesPath(temp.env), 'utf8'))).toEqual({});
    expect((await app.inject({ url: '/api/sessions/s-old', headers: auth() })).json().custom_name).toBe('');
  });

  it('PUT and DELETE name accept a session not known (yet), as lazyagent does; the name shows once it is', async () => {
    const put = await app.inject({ method: 'PUT', url: '/api/sessions/s-later/name', headers: auth(), payload: { name: ' Later ' } });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ session_id: 's-later', custom_name: 'Later' });
    expect(JSON.parse(await readFile(sessionNamesPath(temp.env), 'utf8'))).toEqual({ 's-later': 'Later' });
    views$.next(viewsOf([...sessions, detail({ session_id: 's-later' })], [hidden]));
    expect((await app.inject({ url: '/api/sessions/s-later', headers: auth() })).json().custom_name).toBe('Later');

    const del = await app.inject({ method: 'DELETE', url: '/api/sessions/s-gone/name', headers: auth() });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ session_id: 's-gone', custom_name: '' });
  });

  it('GET /api/stats counts visible and active sessions', async () => {
    expect((await app.inject({ url: '/api/stats', headers: auth() })).json()).toEqual({ total_sessions: 2, active_sessions: 1, window_minutes: 30, ready: true, diagnostics: 0 });
  });

  it('GET /api/config returns the effective config without secrets', async () => {
    const body = (await app.inject({ url: '/api/config', headers: auth() })).json();
    expect(body).not.toHaveProperty('api_passphrase');
    expect(body).not.toHaveProperty('api_salt');
    expect(body.webhooks).toEqual([{ name: 'hook', url: 'http://127.0.0.1:9/x', events: [], agents: [], enabled: true, has_secret: true }]);
    expect(body).toMatchObject({ window_minutes: 30, card_density: 'live' });
  });
});
