import { afterEach, describe, expect, it } from 'vitest';
import type { ApiStats } from '../../../src/core/wire.js';
import { allowedHostsFor } from '../../../src/sinks/http/host-check.js';
import { buildServer } from '../../../src/sinks/http/server.js';
import { markDegraded, markRecovered } from '../../../src/util/storage-health.js';
import { defaultConfig, detail, makeStore, makeTempEnv, viewsOf } from './helpers.js';

/**
 * A store running without its disk is part of the stats: GET /api/stats and every SSE frame's
 * `stats` say so in a few words while it lasts, and stop saying so when the disk recovers, with
 * no session changing in between.
 */
const QUEUE = { store: 'webhook queue', file: '/cache/agentwatch/webhooks.db', fault: 'full', meanwhile: 'deliveries are kept in memory', since: Date.UTC(2026, 2, 10, 9, 0, 0) } as const;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  markRecovered('webhook queue');
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('degraded storage in the stats', () => {
  it('GET /api/stats carries it with a short summary, and drops it once the store recovers', async () => {
    const temp = await makeTempEnv();
    cleanups.push(temp.cleanup);
    const { store } = await makeStore(temp.env, viewsOf([detail({ session_id: 's1' })]));
    const token = 'T'.repeat(43);
    const app = await buildServer({ store, token, salt: 's', config: () => defaultConfig(), allowedHosts: allowedHostsFor('127.0.0.1'), now: () => 0, deliveries: () => [] });
    cleanups.push(() => app.close());
    const headers = { authorization: `Bearer ${token}` };
    const stats = async (): Promise<ApiStats> => (await app.inject({ url: '/api/stats', headers })).json<ApiStats>();

    expect(await stats()).not.toHaveProperty('degraded');
    markDegraded(QUEUE);
    expect((await stats()).degraded).toEqual([
      { store: 'webhook queue', file: QUEUE.file, fault: 'full', meanwhile: 'deliveries are kept in memory', since: '2026-03-10T09:00:00.000Z', summary: 'webhook queue in memory: disk full' },
    ]);
    expect((await stats()).total_sessions).toBe(1);
    markRecovered('webhook queue');
    expect(await stats()).not.toHaveProperty('degraded');
  });

  it('the store pushes new stats when storage degrades and recovers, though no session changed', async () => {
    const temp = await makeTempEnv();
    cleanups.push(temp.cleanup);
    const { store } = await makeStore(temp.env, viewsOf([detail({ session_id: 's1' })]));
    cleanups.push(() => store.close());
    const pushed: ApiStats[] = [];
    const subscription = store.updates$.subscribe((update) => pushed.push(update.stats));
    cleanups.push(() => subscription.unsubscribe());
    store.current();
    pushed.length = 0;
    markDegraded(QUEUE);
    expect(pushed.at(-1)?.degraded?.map((d) => d.summary)).toEqual(['webhook queue in memory: disk full']);
    markRecovered('webhook queue');
    expect(pushed.at(-1)).not.toHaveProperty('degraded');
    expect(pushed).toHaveLength(2);
  });
});
