import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { startPipeline } from '../../../src/app.js';
import type { SessionEvent } from '../../../src/core/session.js';
import { buildServer } from '../../../src/sinks/http/server.js';
import { createSessionStore } from '../../../src/sinks/http/store.js';
import { NOT_A_WORKTREE } from '../../../src/streams/worktree.js';
import { testCtx } from '../../helpers/marbles.js';
import { asyncScheduler } from 'rxjs';
import { defaultConfig } from './helpers.js';

/**
 * The server answers while the first discovery still runs (issue 11: serve at once): auth at
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
      frame$: pipeline.frame$,
      visibility: () => pipeline.visibility,
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
});
