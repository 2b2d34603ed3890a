import http from 'node:http';
import net from 'node:net';
import { VirtualAction, VirtualTimeScheduler } from 'rxjs';
import type { AddressInfo } from 'node:net';
import { EventSource } from 'eventsource';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { allowedHostsFor } from '../../../src/sinks/http/host-check.js';
import { buildServer } from '../../../src/sinks/http/server.js';
import { deriveToken } from '../../../src/sinks/http/token.js';
import { defaultConfig, detail, makeStore, makeTempEnv, viewsOf } from './helpers.js';

/** Real sockets: a listening server on an ephemeral loopback port and the `eventsource` client. */

const config = defaultConfig();
let token: string;
const cleanups: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  token = await deriveToken(config.api_passphrase, config.api_salt);
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const start = async (sse = { throttleMs: 50, heartbeatMs: 15_000 }) => {
  const temp = await makeTempEnv();
  const first = detail({ session_id: 's1', activity: 'idle' });
  const { store, views$ } = await makeStore(temp.env, viewsOf([first]));
  const app = await buildServer({ store, token, salt: config.api_salt, config: () => config, allowedHosts: allowedHostsFor('127.0.0.1'), sse });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  cleanups.push(temp.cleanup, () => store.close(), () => app.close());
  return { app, store, views$, first, base: `http://127.0.0.1:${port}` };
};

interface Update {
  sessions: { session_id: string; activity: string; custom_name: string }[];
  stats: { total_sessions: number };
}

/** Collects `update` events; `next(predicate)` resolves with the first (past or future) that matches. */
const follow = (source: EventSource) => {
  const seen: Update[] = [];
  const waiters: { predicate: (u: Update) => boolean; resolve: (u: Update) => void }[] = [];
  source.addEventListener('update', (event) => {
    const update = JSON.parse(event.data) as Update;
    seen.push(update);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(update)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(update);
      }
    }
  });
  return {
    seen,
    next: (predicate: (u: Update) => boolean) =>
      new Promise<Update>((resolve) => {
        const hit = seen.find(predicate);
        if (hit) resolve(hit);
        else waiters.push({ predicate, resolve });
      }),
  };
};

const withHeader = (): { fetch: typeof fetch } => ({
  fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${token}` } }),
});

describe('GET /api/events over a real socket', () => {
  it('sends the snapshot on connect and an update after a change (Authorization header)', async () => {
    const { base, views$, first } = await start();
    const source = new EventSource(`${base}/api/events`, withHeader());
    cleanups.push(() => source.close());
    const events = follow(source);

    const snapshot = await events.next(() => true);
    expect(snapshot.sessions.map((s) => [s.session_id, s.activity])).toEqual([['s1', 'idle']]);
    expect(snapshot.stats.total_sessions).toBe(1);

    views$.next(viewsOf([{ ...first, activity: 'writing', is_active: true }, detail({ session_id: 's2' })]));
    const update = await events.next((u) => u.sessions.length === 2);
    expect(update.sessions[0]).toMatchObject({ session_id: 's1', activity: 'writing' });
  });

  it('accepts ?token= and pushes a rename made through the API', async () => {
    const { base } = await start();
    const source = new EventSource(`${base}/api/events?token=${token}`);
    cleanups.push(() => source.close());
    const events = follow(source);
    await events.next(() => true);

    const res = await fetch(`${base}/api/sessions/s1/name`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Renamed live' }),
    });
    expect(res.status).toBe(200);
    const renamed = await events.next((u) => u.sessions[0]?.custom_name === 'Renamed live');
    expect(renamed.sessions[0]?.session_id).toBe('s1');
  });

  it('the stream carries lazyagent\'s CORS headers for a client of another origin (Authorization header)', async () => {
    const { base } = await start();
    const abort = new AbortController();
    cleanups.push(() => abort.abort());
    const res = await fetch(`${base}/api/events`, { headers: { authorization: `Bearer ${token}`, origin: 'https://client.example' }, signal: abort.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
  });

  it('answers 401 JSON to a wrong ?token= and never opens the stream', async () => {
    const { base } = await start();
    const res = await fetch(`${base}/api/events?token=nope`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'invalid token' });
  });

  it('drops a client that stops reading once its backlog passes the limit, and keeps serving others', async () => {
    const temp = await makeTempEnv();
    // ~1 MB per update frame: long paths make the backlog grow fast.
    const many = (round: number) =>
      viewsOf(Array.from({ length: 2000 }, (_, i) => detail({ session_id: `s${i}`, cwd: `/work/${'deep/'.repeat(60)}${i}`, model: `m-${round}` })));
    const { store, views$ } = await makeStore(temp.env, many(0));
    // Virtual time: the throttle window passes when the test says so (frames up to 10 s).
    const scheduler = new VirtualTimeScheduler(VirtualAction, 10_000);
    const app = await buildServer({
      store,
      token,
      salt: config.api_salt,
      config: () => config,
      allowedHosts: allowedHostsFor('127.0.0.1'),
      scheduler,
      sse: { throttleMs: 1, heartbeatMs: 5_000, maxBacklogBytes: 256 * 1024 },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    cleanups.push(temp.cleanup, () => store.close(), () => app.close());
    const { port } = app.server.address() as AddressInfo;

    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined); // the server resets the connection
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n\r\n`);
    // Bounded wait for the stream to open (the snapshot starts arriving), then stop reading.
    for (let i = 0; i < 500 && !received.includes('event: update'); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(received).toContain('event: update');
    socket.pause(); // a client that stopped reading

    const rounds = 30;
    for (let round = 1; round <= rounds; round++) {
      views$.next(many(round));
      scheduler.flush();
    }
    socket.resume();
    await ended; // the server dropped the connection on its own
    const updates = received.split('event: update').length - 1;
    expect(updates).toBeGreaterThan(0);
    expect(updates).toBeLessThan(rounds + 1);
    socket.destroy();

    // Another client is served normally afterwards.
    const res = await fetch(`http://127.0.0.1:${port}/api/stats`, { headers: { authorization: `Bearer ${token}` } });
    expect(await res.json()).toEqual({ total_sessions: 2000, active_sessions: 0, window_minutes: 30, ready: true, diagnostics: 0 });
  });

  it('closes open streams on shutdown so app.close() completes', async () => {
    const { app, base } = await start();
    const { ended } = await new Promise<{ ended: Promise<void> }>((resolveOpen, reject) => {
      const request = http.get(`${base}/api/events`, { headers: { authorization: `Bearer ${token}` } }, (response) => {
        expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
        const done = new Promise<void>((resolveEnd) => response.on('end', resolveEnd));
        response.resume();
        response.once('data', () => resolveOpen({ ended: done }));
      });
      request.on('error', reject);
    });
    await app.close();
    await ended;
    expect(app.server.listening).toBe(false);
  });
});
