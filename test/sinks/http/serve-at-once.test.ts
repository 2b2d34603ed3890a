import type { AddressInfo } from 'node:net';
import { EventSource } from 'eventsource';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { startPipeline, type Pipeline } from '../../../src/app/pipeline.js';
import type { SessionEvent } from '../../../src/core/session.js';
import { buildServer } from '../../../src/sinks/http/server.js';
import { createSessionStore } from '../../../src/sinks/http/store.js';
import { NOT_A_WORKTREE } from '../../../src/streams/worktree.js';
import { testCtx } from '../../helpers/marbles.js';
import { asyncScheduler } from 'rxjs';
import { defaultConfig } from './helpers.js';

/**
 * The server answers while the first discovery still runs: auth at
 * once, lists with what is known so far and `ready: false`, then the complete list.
 */
const TOKEN = 'serve-at-once-token-0123456789abcdefghijklmnop';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The pipeline batches on the async scheduler: poll (bounded) until the condition holds. */
const until = async (condition: () => Promise<boolean>): Promise<void> => {
  for (let i = 0; i < 200 && !(await condition()); i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('serve at once', () => {
  it('answers /api/auth, /api/stats (ready false) and /api/sessions before the first discovery ends', async () => {
    const claude = new Subject<SessionEvent>();
    const ctx = { ...testCtx(asyncScheduler), now: () => Date.now() };
    const pipeline = startPipeline(ctx, { sources: { claude: () => claude }, agents: ['claude'] });
    const store = createSessionStore({
      feed: pipeline,
      worktree: () => NOT_A_WORKTREE,
      names: {},
      saveName: async () => ({}),
    });
    const app = await buildServer({ store, token: TOKEN, salt: 's', config: () => defaultConfig(), allowedHosts: ['127.0.0.1'] });
    cleanups.push(async () => {
      await app.close();
      store.close();
      await pipeline.dispose();
    });
    const headers = { host: '127.0.0.1', authorization: `Bearer ${TOKEN}` };

    expect((await app.inject({ url: '/api/auth', headers: { host: '127.0.0.1' } })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/stats', headers })).json()).toMatchObject({ ready: false, total_sessions: 0 });

    claude.next({ agent: 'claude', sessionId: 'early', type: 'meta', patch: { cwd: '/w/early' } });
    claude.next({ agent: 'claude', sessionId: 'early', type: 'turn', at: Date.now() - 1_000, role: 'user', text: 'hi' });
    await until(async () => ((await app.inject({ url: '/api/sessions', headers })).json() as unknown[]).length === 1);
    expect((await app.inject({ url: '/api/sessions', headers })).json()).toMatchObject([{ session_id: 'early' }]);
    expect((await app.inject({ url: '/api/stats', headers })).json()).toMatchObject({ ready: false, total_sessions: 1 });

    claude.next({ type: 'ready', agent: 'claude' });
    await until(async () => ((await app.inject({ url: '/api/stats', headers })).json() as { ready: boolean }).ready);
    expect((await app.inject({ url: '/api/stats', headers })).json()).toMatchObject({ ready: true, total_sessions: 1 });
  });

  it('/api/stats tells how much of the history is read while it is read, and nothing once ready', async () => {
    const claude = new Subject<SessionEvent>();
    const codex = new Subject<SessionEvent>();
    const ctx = { ...testCtx(asyncScheduler), now: () => Date.now() };
    const pipeline = startPipeline(ctx, { sources: { claude: () => claude, codex: () => codex }, agents: ['claude', 'codex'] });
    const store = createSessionStore({ feed: pipeline, worktree: () => NOT_A_WORKTREE, names: {}, saveName: async () => ({}) });
    const app = await buildServer({ store, token: TOKEN, salt: 's', config: () => defaultConfig(), allowedHosts: ['127.0.0.1'] });
    cleanups.push(async () => {
      await app.close();
      store.close();
      await pipeline.dispose();
    });
    const headers = { host: '127.0.0.1', authorization: `Bearer ${TOKEN}` };
    const stats = async (): Promise<Record<string, unknown>> => (await app.inject({ url: '/api/stats', headers })).json();

    expect(await stats()).not.toHaveProperty('history');
    claude.next({ type: 'progress', agent: 'claude', read: 3200, total: 8000 });
    codex.next({ type: 'progress', agent: 'codex', read: 0, total: 2000 });
    await until(async () => (await stats()).history !== undefined);
    expect(await stats()).toMatchObject({ ready: false, history: { read: 3200, total: 10_000 } });
    claude.next({ type: 'progress', agent: 'claude', read: 8000, total: 8000 });
    claude.next({ type: 'ready', agent: 'claude' });
    await until(async () => ((await stats()).history as { read: number } | undefined)?.read === 8000);
    expect(await stats()).toMatchObject({ ready: false, history: { read: 8000, total: 10_000 } });
    codex.next({ type: 'progress', agent: 'codex', read: 2000, total: 2000 });
    codex.next({ type: 'ready', agent: 'codex' });
    await until(async () => (await stats()).ready === true);
    expect(await stats()).not.toHaveProperty('history');
  });

  it('streams over a real socket from before the first discovery ends: snapshot (ready false), patches, one ready event; update clients too', async () => {
    const claude = new Subject<SessionEvent>();
    const ctx = { ...testCtx(asyncScheduler), now: () => Date.now() };
    // As the monitor does: the server is up before the sources start.
    const pipeline: Pipeline = startPipeline(ctx, { sources: { claude: () => claude }, agents: ['claude'], deferSources: true });
    const store = createSessionStore({ feed: pipeline, worktree: () => NOT_A_WORKTREE, names: {}, saveName: async () => ({}) });
    const app = await buildServer({ store, token: TOKEN, salt: 's', config: () => defaultConfig(), allowedHosts: ['127.0.0.1'] });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const patches = new EventSource(`${base}/api/events?format=patch&token=${TOKEN}`);
    const updates = new EventSource(`${base}/api/events?token=${TOKEN}`);
    cleanups.push(async () => {
      patches.close();
      updates.close();
      await app.close();
      store.close();
      await pipeline.dispose();
    });
    const got: { type: string; data: { stats: { ready: boolean; total_sessions: number }; sessions?: { session_id: string }[]; changed?: { session_id: string }[] } }[] = [];
    for (const type of ['snapshot', 'patch', 'ready']) patches.addEventListener(type, (event) => got.push({ type, data: JSON.parse(event.data) }));
    const updated: { sessions: { session_id: string }[]; stats: { ready: boolean } }[] = [];
    updates.addEventListener('update', (event) => updated.push(JSON.parse(event.data)));
    const poll = async (condition: () => boolean): Promise<void> => until(async () => condition());

    await poll(() => got.length > 0 && updated.length > 0);
    expect(got[0]).toMatchObject({ type: 'snapshot', data: { sessions: [], stats: { ready: false, total_sessions: 0 } } });

    pipeline.start();
    claude.next({ agent: 'claude', sessionId: 'early', type: 'turn', at: Date.now() - 1_000, role: 'user', text: 'hi' });
    await poll(() => got.some((e) => e.type === 'patch' && e.data.changed?.[0]?.session_id === 'early'));
    expect(got.find((e) => e.type === 'patch')?.data.stats).toMatchObject({ ready: false, total_sessions: 1 });
    await poll(() => updated.some((u) => u.sessions.length === 1));

    claude.next({ agent: 'claude', sessionId: 'later', type: 'turn', at: Date.now() - 500, role: 'user', text: 'hi' });
    claude.next({ type: 'ready', agent: 'claude' });
    await poll(() => got.some((e) => e.type === 'ready'));
    const readyAt = got.findIndex((e) => e.type === 'ready');
    // The patch with the last sessions found comes first, then `ready` with the final stats.
    expect(got[readyAt - 1]).toMatchObject({ type: 'patch', data: { changed: [{ session_id: 'later' }], stats: { ready: true, total_sessions: 2 } } });
    expect(got[readyAt]?.data.stats).toMatchObject({ ready: true, total_sessions: 2 });
    await poll(() => updated.some((u) => u.stats.ready));
    expect(updated.at(-1)?.sessions.map((s) => s.session_id)).toEqual(['later', 'early']);

    // Later changes are patches only; `ready` is sent once.
    claude.next({ agent: 'claude', sessionId: 'early', type: 'turn', at: Date.now(), role: 'assistant', text: 'done' });
    await poll(() => got.filter((e) => e.type === 'patch').some((e) => e.data.changed?.[0]?.session_id === 'early' && e.data.stats.ready));
    expect(got.filter((e) => e.type === 'ready')).toHaveLength(1);
  });
});

