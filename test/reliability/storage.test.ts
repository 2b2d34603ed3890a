import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Subject, VirtualAction, VirtualTimeScheduler } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { backFill } from '../../src/config/back-fill.js';
import { toEffective } from '../../src/config/effective.js';
import type { Loaded } from '../../src/config/load.js';
import type { CliIo } from '../../src/core/io.js';
import type { Transition } from '../../src/core/session.js';
import type { StartSources } from '../../src/search/catch-up.js';
import { checkCacheStorage } from '../../src/doctor/storage.js';
import { openSearchDb, searchDbPath } from '../../src/search/index-db.js';
import { createLiveIndex, type LiveIndex } from '../../src/search/live.js';
import { SearchUnavailableError } from '../../src/search/unavailable.js';
import { openDeliveryStore, webhookQueuePath, type DeliveryStore } from '../../src/sinks/webhook/delivery-store.js';
import { withFallback } from '../../src/sinks/webhook/fallback-store.js';
import { allowedHostsFor } from '../../src/sinks/http/host-check.js';
import { buildServer } from '../../src/sinks/http/server.js';
import { degradedStorage, markDegraded, markRecovered } from '../../src/util/storage-health.js';
import { defaultConfig, detail, makeStore, viewsOf } from '../sinks/http/helpers.js';
import { runCli } from '../helpers/cli.js';
import { makeTempHome } from '../helpers/temp-home.js';
import { transition } from '../sinks/webhook/transitions.js';
import { startFlakyReceiver } from './helpers/flaky-receiver.js';
import { mountSmallDisk } from './helpers/small-disk.js';
import { virtualSink } from './helpers/virtual-sink.js';

/**
 * A disk that fails the stores (full, read-only, forbidden, locked): the monitor keeps running on
 * what it can, says so once, and gets back by itself.
 */

/** Every write of `store` fails as SQLite fails on a full disk while `full()` says so. */
const failingWrites = (store: DeliveryStore, full: () => boolean): DeliveryStore =>
  new Proxy(store, {
    get: (target, key: keyof DeliveryStore) => {
      const value = target[key];
      if (typeof value !== 'function' || ['recent', 'find', 'queued', 'queuedCounts', 'nextQueued', 'exportRows', 'close'].includes(key)) return value;
      return (...args: unknown[]) => {
        if (full()) throw new BetterSqlite3.SqliteError('database or disk is full', 'SQLITE_FULL');
        return (value as (...a: unknown[]) => unknown)(...args);
      };
    },
  });

describe('the webhook queue on a disk that fills up', () => {
  it('keeps queueing in memory, retries with backoff, and moves everything back when there is room', async () => {
    const temp = await makeTempHome();
    try {
      const file = webhookQueuePath(temp.env);
      let full = false;
      const lines: string[] = [];
      const say = (line: string): number => lines.push(line);
      const scheduler = new VirtualTimeScheduler(VirtualAction, Number.POSITIVE_INFINITY);
      const store = withFallback({
        file,
        openFile: () => failingWrites(openDeliveryStore(file, { owner: 'run' }), () => full),
        openMemory: () => openDeliveryStore(':memory:', { owner: 'run' }),
        scheduler,
        now: () => scheduler.now(),
        log: { info: say, warn: say, error: say },
      });
      store.enqueue({ id: 'd1', webhook: 'h', body: '{"n":1}', createdAt: 0 });
      full = true;
      for (let i = 2; i <= 300; i++) store.enqueue({ id: `d${i}`, webhook: 'h', body: `{"n":${i}}`, createdAt: 0 });
      expect(store.degraded()).toBe('full');
      expect(store.file).toBe(':memory:');
      expect(degradedStorage().map((entry) => [entry.store, entry.fault])).toEqual([['webhook queue', 'full']]);
      // The one written before the disk filled is still the oldest.
      expect(store.nextQueued('h', 2, new Set()).map((d) => d.id)).toEqual(['d1', 'd2']);
      store.markDelivered('d1', { at: 1, status: 200, error: null, latencyMs: 3 });
      expect(store.queued('h')).toBe(299);
      // Retried at 1 s, 6 s, 36 s: still full.
      scheduler.maxFrames = 40_000;
      scheduler.flush();
      expect(store.degraded()).toBe('full');
      full = false;
      scheduler.maxFrames = 200_000;
      scheduler.flush();
      expect(store.degraded()).toBeUndefined();
      expect(store.file).toBe(file);
      expect(degradedStorage()).toEqual([]);
      expect(lines).toEqual([
        expect.stringMatching(/^webhook queue .*webhooks\.db cannot be written \(the disk is full\); deliveries are kept in memory until it can$/),
        expect.stringMatching(/^webhook queue .*webhooks\.db can be written again; 299 waiting deliveries moved back to it$/),
      ]);
      store.close();
      const reread = openDeliveryStore(file, { owner: 'run' });
      expect(reread.queued('h')).toBe(299);
      expect(reread.find('d1')).toMatchObject({ state: 'delivered', status: 200 });
      expect(reread.nextQueued('h', 300, new Set()).map((d) => d.id)).toEqual(Array.from({ length: 299 }, (_, i) => `d${i + 2}`));
      reread.close();
    } finally {
      await temp.cleanup();
    }
  });
});

const disk = mountSmallDisk();
afterAll(() => disk?.unmount());

describe.runIf(disk !== undefined)('a real full disk (a small tmpfs) under the running sink', () => {
  it('300 transitions on a full disk: all 300 delivered, said once, back on the file when there is room', async () => {
    const receiver = await startFlakyReceiver();
    try {
      const sink = virtualSink([{ name: 'r', url: receiver.url('/r') }], () => false, disk!.dir);
      const transitions$ = new Subject<Transition>();
      const stop = sink.start(transitions$);
      disk!.fill();
      for (let i = 1; i <= 300; i++) transitions$.next(transition({ sessionId: `s${i}` }));
      for (let round = 0; round < 400 && receiver.accepted('/r').length < 300; round++) await sink.advance(100);
      expect(new Set(receiver.accepted('/r')).size).toBe(300);
      expect(sink.lines.filter((line) => line.includes('cannot be written'))).toEqual([
        expect.stringMatching(/^warn webhook queue .*webhooks\.db cannot be written \(the disk is full\); deliveries are kept in memory until it can$/),
      ]);
      disk!.free();
      await sink.advance(60_000);
      expect(sink.lines.filter((line) => line.includes('can be written again')), sink.lines.join('\n')).toHaveLength(1);
      await sink.stop(stop);
      const log = openDeliveryStore(webhookQueuePath(sink.env), { readonly: true });
      expect(log.recent({ limit: 1000 }).filter((r) => r.state === 'delivered')).toHaveLength(300);
      log.close();
    } finally {
      await receiver.close();
    }
  });
});

const searchEnv = (cacheHome: string): Record<string, string> => ({ HOME: path.join(cacheHome, 'home'), XDG_CACHE_HOME: cacheHome, XDG_CONFIG_HOME: path.join(cacheHome, 'config') });

describe('the search index', () => {
  it('a lock held longer than the busy timeout is waited for and reported, never taken for corruption', async () => {
    const temp = await makeTempHome();
    try {
      const first = openSearchDb(temp.env);
      first.db.close();
      const file = searchDbPath(temp.env);
      const holder = new BetterSqlite3(file);
      holder.exec('BEGIN EXCLUSIVE');
      try {
        expect(() => openSearchDb(temp.env)).toThrow(expect.objectContaining({ code: expect.stringMatching(/^SQLITE_BUSY/) }));
      } finally {
        holder.exec('ROLLBACK');
        holder.close();
      }
      expect((await readdir(path.dirname(file))).filter((name) => name.includes('.broken-'))).toEqual([]);
      const again = openSearchDb(temp.env);
      expect(again.rebuilt).toBe(false);
      again.db.close();
    } finally {
      await temp.cleanup();
    }
  });

  it('keeps one copy moved aside at most, and removes it once the rebuilt index opens as a good one', async () => {
    const temp = await makeTempHome();
    try {
      const file = searchDbPath(temp.env);
      const dir = path.dirname(file);
      const copies = async (): Promise<string[]> => (await readdir(dir)).filter((name) => /^search\.db\.broken-\d+$/.test(name));
      await mkdir(dir, { recursive: true });
      for (let round = 0; round < 2; round++) {
        await writeFile(file, Buffer.from('SQLite format 3\u0000'.padEnd(8192, '\u00ff'), 'latin1'));
        const broken = openSearchDb(temp.env);
        expect(broken.rebuilt).toBe(true);
        broken.db.close();
        expect(await copies()).toHaveLength(1);
      }
      openSearchDb(temp.env).db.close();
      expect(await copies()).toEqual([]);
    } finally {
      await temp.cleanup();
    }
  });
});

describe.runIf(disk !== undefined)('the search index on a real read-only and full disk (a small tmpfs)', () => {
  it('a read-only cache folder: the monitor\'s index does not stop it, says so once, answers 503-unavailable, and opens when the folder is writable again', async () => {
    const cacheHome = path.join(disk!.dir, 'ro-cache');
    await mkdir(cacheHome, { recursive: true });
    disk!.remount('ro');
    const lines: string[] = [];
    const say = (line: string): number => lines.push(line);
    const scheduler = new VirtualTimeScheduler(VirtualAction, Number.POSITIVE_INFINITY);
    const loaded = { config: toEffective(backFill({}).filled, {}).config, path: path.join(cacheHome, 'config.json') } as unknown as Loaded;
    const io = { env: searchEnv(cacheHome), platform: 'linux' } as unknown as CliIo;
    const unused: StartSources = () => Promise.reject(new Error('not started in this test'));
    let index: LiveIndex | undefined;
    try {
      index = createLiveIndex(io, loaded, unused, scheduler, { info: say, warn: say, error: say });
      expect(degradedStorage().map((entry) => [entry.store, entry.fault])).toEqual([['search index', 'read-only']]);
      await expect(index.search('bucket', { limit: 5 })).rejects.toBeInstanceOf(SearchUnavailableError);
      scheduler.maxFrames = 10_000;
      scheduler.flush();
      expect(lines).toEqual([expect.stringMatching(/^search index .*search\.db cannot be written \(the folder is read-only\); search answers nothing until it can$/)]);
    } finally {
      disk!.remount('rw');
    }
    scheduler.maxFrames = 200_000;
    scheduler.flush();
    expect(lines.at(-1)).toMatch(/^search index .*search\.db can be opened again$/);
    expect(degradedStorage()).toEqual([]);
    await index.close();
  });

  it('`agentwatch search` on a full disk says what is wrong, not "unexpected error"', async () => {
    const cacheHome = path.join(disk!.dir, 'full-cache');
    await mkdir(path.join(cacheHome, 'home'), { recursive: true });
    disk!.fill();
    try {
      const run = await runCli(['search', 'bucket'], { env: { ...searchEnv(cacheHome), PATH: process.env.PATH ?? '/usr/bin:/bin', NO_COLOR: '1' } });
      expect(run.stderr).not.toMatch(/unexpected error/i);
      expect(run.stderr).toMatch(/search index .*search\.db: the disk is full; free some space or fix the folder, then search again/);
      expect(run.code).toBe(1);
    } finally {
      disk!.free();
    }
  });
});

describe.runIf(disk !== undefined)('the API on a read-only config folder (a small tmpfs)', () => {
  it('a rename answers 409 naming the cause, as PUT /api/config does; /api/stats says what runs degraded', async () => {
    const configHome = path.join(disk!.dir, 'config-home');
    await mkdir(configHome, { recursive: true });
    const env = { HOME: path.join(disk!.dir, 'home'), XDG_CONFIG_HOME: configHome, XDG_CACHE_HOME: path.join(disk!.dir, 'api-cache') };
    const { store } = await makeStore(env, viewsOf([detail({ session_id: 's1' })]));
    const token = 'T'.repeat(43);
    const app = await buildServer({ store, token, salt: 's', config: () => defaultConfig(), allowedHosts: allowedHostsFor('127.0.0.1'), now: () => 0, deliveries: () => [] });
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    disk!.remount('ro');
    try {
      const put = await app.inject({ method: 'PUT', url: '/api/sessions/s1/name', headers, payload: '{"name":"shop"}' });
      expect(put.statusCode).toBe(409);
      expect(put.json().error).toMatch(/^cannot save the name: the folder is read-only \(EROFS/);
      const del = await app.inject({ method: 'DELETE', url: '/api/sessions/s1/name', headers: { authorization: headers.authorization } });
      expect(del.statusCode).toBe(409);
    } finally {
      disk!.remount('rw');
    }
    const entry = { store: 'webhook queue', file: '/q/webhooks.db', fault: 'full', meanwhile: 'deliveries are kept in memory', since: 0 } as const;
    markDegraded(entry);
    try {
      const stats = await app.inject({ url: '/api/stats', headers });
      expect(stats.json().degraded).toEqual([{ store: 'webhook queue', file: '/q/webhooks.db', fault: 'full', meanwhile: 'deliveries are kept in memory', since: '1970-01-01T00:00:00.000Z', summary: 'webhook queue in memory: disk full' }]);
    } finally {
      markRecovered('webhook queue');
    }
    expect((await app.inject({ url: '/api/stats', headers })).json()).not.toHaveProperty('degraded');
    await app.close();
  });
});

describe.runIf(disk !== undefined)('doctor on a full disk (a small tmpfs)', () => {
  it('names the cache folder that cannot be written and what runs degraded because of it', async () => {
    const cacheHome = path.join(disk!.dir, 'doctor-cache');
    await mkdir(cacheHome, { recursive: true });
    expect(checkCacheStorage(searchEnv(cacheHome))).toBeUndefined();
    disk!.fill();
    try {
      const problem = checkCacheStorage(searchEnv(cacheHome));
      expect(problem?.fault).toBe('full');
      expect(problem?.message).toMatch(/^cache folder .* cannot be written \(the disk is full\): webhook deliveries are kept in memory only/);
    } finally {
      disk!.free();
    }
  });
});
