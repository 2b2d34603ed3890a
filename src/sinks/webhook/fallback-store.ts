import type { SchedulerLike, Subscription } from 'rxjs';
import type { Logger } from '../../core/contracts.js';
import { storageFault, type StorageFault } from '../../util/storage-fault.js';
import { describeDegraded, markDegraded, markRecovered } from '../../util/storage-health.js';
import type { DeliveryStore } from './delivery-store.js';

/** Waits between attempts to go back to the file; the last repeats. */
const RECOVER_DELAYS_MS: readonly number[] = [1_000, 5_000, 30_000, 60_000];

export interface FallbackDeps {
  readonly file: string;
  /** The store on `file`; throws when it cannot be opened. */
  readonly openFile: () => DeliveryStore;
  /** An empty store in memory, with the same owner and bounds. */
  readonly openMemory: () => DeliveryStore;
  readonly scheduler: SchedulerLike;
  readonly now: () => number;
  readonly log: Logger;
  readonly delays?: readonly number[];
}

export interface FallbackStore extends DeliveryStore {
  /** Why the queue is in memory now; undefined while it is on its file. */
  readonly degraded: () => StorageFault | undefined;
  /** Moves what memory holds back onto the file; true when the queue is on its file. */
  readonly recover: () => boolean;
}

/**
 * The delivery queue on its file, or in memory while the file cannot be written (a full disk, a
 * read-only or forbidden folder, a lock held too long): the sink never stops for its disk. On the
 * first fault the run's waiting deliveries are copied into memory (they also stay in the file, for
 * the next start should this run not get back); every call then goes to memory, and the file is
 * tried again with backoff on `scheduler`. Getting back writes every row memory holds onto the
 * file in one transaction (waiting ones in their order, finished ones with their outcome). Said
 * once each way on the log, and in `storage-health.ts` for `/api/stats` and the metrics.
 *
 * @example const store = withFallback({ file, openFile: () => openDeliveryStore(file), openMemory: () => openDeliveryStore(':memory:'), scheduler, now, log });
 */
export const withFallback = (deps: FallbackDeps): FallbackStore => {
  const delays = deps.delays ?? RECOVER_DELAYS_MS;
  let onFile: DeliveryStore | undefined;
  let memory: DeliveryStore | undefined;
  let fault: StorageFault | undefined;
  let attempt = 0;
  let timer: Subscription | undefined;
  let closed = false;

  const schedule = (): void => {
    timer?.unsubscribe();
    const wait = delays[Math.min(attempt, delays.length - 1)] ?? 0;
    attempt += 1;
    timer = deps.scheduler.schedule(() => {
      timer = undefined;
      if (!closed && !recover()) schedule();
    }, wait);
  };

  const degrade = (why: StorageFault): DeliveryStore => {
    fault = why;
    const store = deps.openMemory();
    try {
      if (onFile) {
        store.absorb(onFile.exportRows('queued'));
        store.recordStates(onFile.lastStates(), deps.now());
      }
    } catch {
      // Unreadable too: they stay waiting in the file, for this run when it gets back or the next.
    }
    memory = store;
    const entry = { store: 'webhook queue', file: deps.file, fault: why, meanwhile: 'deliveries are kept in memory', since: deps.now() } as const;
    if (markDegraded(entry)) deps.log.warn(describeDegraded(entry));
    attempt = 0;
    schedule();
    return store;
  };

  const recover = (): boolean => {
    if (!memory) return true;
    let moved = 0;
    try {
      onFile ??= deps.openFile();
      moved = [...memory.queuedCounts().values()].reduce((sum, n) => sum + n, 0);
      onFile.absorb(memory.exportRows('all'));
      onFile.recordStates(memory.lastStates(), deps.now());
    } catch (error) {
      if (storageFault(error) === undefined) deps.log.warn(`webhook queue ${deps.file}: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
    memory.close();
    memory = undefined;
    fault = undefined;
    timer?.unsubscribe();
    timer = undefined;
    markRecovered('webhook queue');
    deps.log.info(`webhook queue ${deps.file} can be written again; ${moved} waiting deliver${moved === 1 ? 'y' : 'ies'} moved back to it`);
    return true;
  };

  try {
    onFile = deps.openFile();
  } catch (error) {
    const why = storageFault(error);
    if (why === undefined) throw error;
    degrade(why);
  }

  const run = <T>(op: (store: DeliveryStore) => T): T => {
    if (memory) return op(memory);
    try {
      return op(onFile!);
    } catch (error) {
      const why = storageFault(error);
      if (why === undefined) throw error;
      // A failed call changed nothing in the file (one statement or one transaction): it is made again in memory.
      return op(degrade(why));
    }
  };

  return {
    get file() {
      return memory ? ':memory:' : deps.file;
    },
    enqueue: (delivery) => run((s) => s.enqueue(delivery)),
    nextQueued: (webhook, limit, exclude) => run((s) => s.nextQueued(webhook, limit, exclude)),
    markDelivered: (id, result) => run((s) => s.markDelivered(id, result)),
    markRefused: (id, result) => run((s) => s.markRefused(id, result)),
    markFailed: (id, result) => run((s) => s.markFailed(id, result)),
    recordRetry: (id, result) => run((s) => s.recordRetry(id, result)),
    expire: (now) => run((s) => s.expire(now)),
    queuedCounts: (scope) => run((s) => s.queuedCounts(scope)),
    queued: (webhook) => run((s) => s.queued(webhook)),
    recent: (query) => run((s) => s.recent(query)),
    find: (id) => run((s) => s.find(id)),
    requeue: (id) => run((s) => s.requeue(id)),
    claim: (now) => run((s) => s.claim(now)),
    release: () => {
      recover();
      run((s) => s.release());
    },
    exportRows: (scope) => run((s) => s.exportRows(scope)),
    absorb: (rows) => run((s) => s.absorb(rows)),
    recordState: (session, activity, at) => run((s) => s.recordState(session, activity, at)),
    recordStates: (states, at) => run((s) => s.recordStates(states, at)),
    lastStates: () => run((s) => s.lastStates()),
    takeSuperseded: () => run((s) => s.takeSuperseded()),
    degraded: () => fault,
    recover,
    close: () => {
      closed = true;
      timer?.unsubscribe();
      timer = undefined;
      memory?.close();
      onFile?.close();
      if (memory) markRecovered('webhook queue');
      memory = undefined;
    },
  };
};
