import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { earlyAnswer, MAX_HELD, openFrontDoor, type FrontDoor } from '../../../src/sinks/http/front-door.js';
import { allowedHostsFor } from '../../../src/sinks/http/host-check.js';
import { buildServer } from '../../../src/sinks/http/server.js';
import { authInfo } from '../../../src/sinks/http/token.js';
import { defaultConfig, makeStore, makeTempEnv, viewsOf } from './helpers.js';

/**
 * The socket that listens before the app has loaded (the API answers at once): real HTTP over loopback, and its own answers compared with the app's.
 */

const AUTH = authInfo('front-door-salt');
const LOOPBACK = allowedHostsFor('127.0.0.1');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One request over loopback with any Host header (fetch cannot set Host). */
const send = (door: FrontDoor, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: door.address.port, path, method, headers: { host: `127.0.0.1:${door.address.port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });

const openDoor = async (): Promise<FrontDoor> => {
  const door = await openFrontDoor({ host: '127.0.0.1', ports: [0], allowedHosts: LOOPBACK, auth: AUTH });
  cleanups.push(() => door.close());
  return door;
};

/** Polls (bounded) until `condition` holds: the door holds requests without answering. */
const until = async (condition: () => boolean): Promise<void> => {
  for (let i = 0; i < 400 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
};

describe('earlyAnswer', () => {
  it.each([
    [{ method: 'GET', url: '/api/auth', host: '127.0.0.1:7421' }, { status: 200, body: AUTH }],
    [{ method: 'GET', url: '/api/auth?x=1', host: 'localhost' }, { status: 200, body: AUTH }],
    [{ method: 'GET', url: '/api/auth', host: 'evil.example:7421' }, { status: 403, body: { error: 'host not allowed: use localhost or 127.0.0.1' } }],
    [{ method: 'GET', url: '/api/sessions', host: 'evil.example' }, { status: 403, body: { error: 'host not allowed: use localhost or 127.0.0.1' } }],
    [{ method: 'GET', url: '/api/auth', host: undefined }, { status: 403, body: { error: 'host not allowed: use localhost or 127.0.0.1' } }],
    [{ method: 'GET', url: '/api/sessions', host: '127.0.0.1' }, undefined],
    [{ method: 'GET', url: '/', host: '127.0.0.1' }, undefined],
    [{ method: 'HEAD', url: '/api/auth', host: '127.0.0.1' }, undefined],
    [{ method: 'GET', url: '/api/auth/', host: '127.0.0.1' }, undefined],
  ])('%j -> %j (undefined: held for the app)', (request, expected) => {
    expect(earlyAnswer(request, LOOPBACK, AUTH)).toEqual(expected);
  });

  it('answers any Host when bound to a non-loopback address on purpose', () => {
    expect(earlyAnswer({ method: 'GET', url: '/api/auth', host: 'my-laptop.lan:7421' }, 'any', AUTH)).toEqual({ status: 200, body: AUTH });
  });
});

describe('openFrontDoor', () => {
  it('answers /api/auth and refuses a foreign Host before the app is there, with the bytes and headers the app sends', async () => {
    const door = await openDoor();
    const temp = await makeTempEnv();
    const { store } = await makeStore(temp.env, viewsOf([]));
    const app = await buildServer({ store, token: 'unused-token', salt: AUTH.salt, config: () => defaultConfig(), allowedHosts: LOOPBACK });
    cleanups.push(async () => {
      await app.close();
      store.close();
      await temp.cleanup();
    });
    const same = ['content-type', 'content-length', 'cache-control', 'x-content-type-options', 'access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-headers'];
    for (const [path, host] of [
      ['/api/auth', '127.0.0.1'],
      ['/api/sessions', 'evil.example'],
    ] as const) {
      const early = await send(door, path, { host });
      const fromApp = await app.inject({ url: path, headers: { host } });
      expect(early.status).toBe(fromApp.statusCode);
      expect(early.body).toBe(fromApp.body);
      for (const name of same) expect([name, early.headers[name]]).toEqual([name, fromApp.headers[name]]);
      // The salt is readable by a lazyagent client of another origin from the first moment (cors.ts).
      expect(early.headers['access-control-allow-origin']).toBe(path === '/api/auth' ? '*' : undefined);
    }
  });

  it('holds other requests until open, then hands them to the app in order; later ones go straight to it', async () => {
    const door = await openDoor();
    const seen: string[] = [];
    const first = send(door, '/api/sessions');
    await until(() => door.held() === 1);
    const second = send(door, '/', {}, 'HEAD');
    await until(() => door.held() === 2);
    // Answered by the door itself while the others wait.
    expect((await send(door, '/api/auth')).status).toBe(200);
    expect(door.held()).toBe(2);

    door.open((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      response.end(`app:${request.url}`);
    });
    expect((await first).body).toBe('app:/api/sessions');
    expect((await second).status).toBe(200);
    expect(seen).toEqual(['GET /api/sessions', 'HEAD /']);
    // After open, even /api/auth is the app's.
    expect((await send(door, '/api/auth')).body).toBe('app:/api/auth');
  });

  it('on close, answers held requests 503 and stops listening; close is idempotent', async () => {
    const door = await openDoor();
    const held = send(door, '/api/stats');
    await until(() => door.held() === 1);
    await Promise.all([door.close(), door.close()]);
    const answer = await held;
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toEqual({ error: 'agentwatch is stopping' });
    expect(door.server.listening).toBe(false);
  });

  it('holds at most maxHeld requests; more are told to retry (503, Retry-After)', async () => {
    const door = await openFrontDoor({ host: '127.0.0.1', ports: [0], allowedHosts: LOOPBACK, auth: AUTH, maxHeld: 1 });
    cleanups.push(() => door.close());
    const first = send(door, '/api/stats');
    await until(() => door.held() === 1);
    const refused = await send(door, '/api/stats');
    expect([refused.status, refused.headers['retry-after']]).toEqual([503, '1']);
    door.open((_request, response) => response.end('app'));
    expect((await first).body).toBe('app');
    expect(MAX_HELD).toBe(1024);
  });

  it('on localhost, listens on what the name resolves to (every loopback address it names, one port)', async () => {
    const door = await openFrontDoor({ host: 'localhost', ports: [0], allowedHosts: allowedHostsFor('localhost'), auth: AUTH });
    cleanups.push(() => door.close());
    expect(door.address.host).toBe('localhost');
    const answer = await fetch(`http://localhost:${door.address.port}/api/auth`);
    expect(await answer.json()).toEqual(AUTH);
  });

  it('skips a busy port and reports the one bound', async () => {
    const busy = await openDoor();
    const door = await openFrontDoor({ host: '127.0.0.1', ports: [busy.address.port, 0], allowedHosts: LOOPBACK, auth: AUTH });
    cleanups.push(() => door.close());
    expect(door.address.port).not.toBe(busy.address.port);
    expect((await send(door, '/api/auth')).status).toBe(200);
  });
});
