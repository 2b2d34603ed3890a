import BetterSqlite3 from 'better-sqlite3';
import { Subject, VirtualAction, VirtualTimeScheduler } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Transition } from '../../src/core/session.js';
import { openDeliveryStore, webhookQueuePath, type DeliveryStore } from '../../src/sinks/webhook/delivery-store.js';
import { withFallback } from '../../src/sinks/webhook/fallback-store.js';
import { degradedStorage } from '../../src/util/storage-health.js';
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
      expect(sink.lines.filter((line) => line.includes('can be written again'))).toHaveLength(1);
      await sink.stop(stop);
      const log = openDeliveryStore(webhookQueuePath(sink.env), { readonly: true });
      expect(log.recent({ limit: 1000 }).filter((r) => r.state === 'delivered')).toHaveLength(300);
      log.close();
    } finally {
      await receiver.close();
    }
  });
});
