import { randomUUID } from 'node:crypto';
import { asyncScheduler, filter, interval, map, merge, mergeMap, NEVER, take, timer, type Observable } from 'rxjs';
import type { InvalidWebhook } from '../../config/effective.js';
import type { WebhookEntry } from '../../config/schema.js';
import type { Logger, Teardown } from '../../core/contracts.js';
import type { Ctx } from '../../sources/contracts.js';
import type { Sink } from '../../streams/sink.js';
import { sessionKey, type Transition } from '../../core/session.js';
import type { SessionsState } from '../../core/contracts.js';
import { deriveActivity } from '../../streams/activity.js';
import type { WebhookMetrics } from '../metrics/index.js';
import { createBreaker, type Breaker, type BreakerEvent } from './breaker.js';
import { announceChanges, type Announced } from './announce.js';
import { openDeliveryStore, webhookQueuePath, type DeliveryStore, type StoreOptions } from './delivery-store.js';
import { withFallback, type FallbackStore } from './fallback-store.js';
import { isDeliverable, matchesWebhook } from './filter.js';
import { buildPayload, requestFor } from './payload.js';
import { gotPost, type Post } from './post.js';
import { describeInvalidWebhook } from './report.js';
import { BACKOFF_MS } from './retry.js';
import { createSinkLog } from './sink-log.js';
import { packageVersion } from './version.js';

const DEFAULT_TIMEOUT_MS = 10_000;
/** Requests in flight per healthy receiver. */
const DEFAULT_CONCURRENCY = 4;
/** How long shutdown lets a healthy receiver drain before leaving the rest queued for the next start. */
const DEFAULT_FLUSH_MS = 3_000;
/** How often a running sink says it is alive (and adopts orphaned deliveries). */
const HEARTBEAT_MS = 10_000;

export interface WebhookOptions extends Pick<StoreOptions, 'maxQueued' | 'maxAgeMs'> {
  /** `Effective.invalidWebhooks`: reported once, here, at startup. */
  readonly invalid?: readonly InvalidWebhook[];
  readonly post?: Post;
  /** Waits before each retry of a down receiver's oldest delivery; the last repeats. */
  readonly delays?: readonly number[];
  readonly timeoutMs?: number;
  readonly concurrency?: number;
  readonly makeId?: () => string;
  readonly version?: string;
  readonly apiBaseUrl?: string;
  readonly flushMs?: number;
  /** The durable queue; by default `webhooks.db` in the cache directory. */
  readonly store?: DeliveryStore;
  /** Told every outcome, retry and queue depth (the Prometheus counters of GET /metrics). */
  readonly metrics?: WebhookMetrics;
  /**
   * The pipeline's state: once it is ready (the first discovery read what changed while no
   * agentwatch ran), each session receivers were told about whose state differs now gets a
   * transition from what they were told, marked `replayed`.
   */
  readonly state$?: Observable<SessionsState>;
}

/**
 * The queue file. A damaged one is moved aside (never deleted: it may hold deliveries) and a new
 * one started; when even that fails, an in-memory queue for this run. Either is said once. A disk
 * that fails it (full, read-only, forbidden, locked) is a condition, not damage: the queue runs in
 * memory meanwhile and goes back to the file by itself (fallback-store.ts).
 */
export const openQueue = (ctx: Pick<Ctx, 'env'> & Partial<Pick<Ctx, 'scheduler' | 'now'>>, log: Logger, options: StoreOptions = {}): FallbackStore | DeliveryStore => {
  const file = webhookQueuePath(ctx.env);
  let refused: { readonly error: Error; readonly aside: string | undefined } | undefined;
  try {
    const store = withFallback({
      file,
      openFile: () => openDeliveryStore(file, options, (error, aside) => (refused = { error, aside })),
      openMemory: () => openDeliveryStore(':memory:', options),
      scheduler: ctx.scheduler ?? asyncScheduler,
      now: ctx.now ?? Date.now,
      log,
    });
    if (refused?.aside !== undefined) log.warn(`webhook queue ${file} was unusable (${refused.error.message}); moved it to ${refused.aside} and started a new one`);
    return store;
  } catch (error) {
    const why = (refused?.error ?? (error as Error)).message;
    log.warn(`webhook queue ${file} is unusable (${why}); deliveries are kept in memory only for this run`);
    return openDeliveryStore(':memory:', options);
  }
};

const listCounts = (counts: ReadonlyMap<string, number>): string =>
  [...counts].map(([name, n]) => `${name}: ${n}`).join(', ');

/**
 * Delivers `transitions$` to every valid, enabled entry of `ctx.config.webhooks` through the
 * durable queue (delivery-store.ts) and a circuit breaker per receiver (breaker.ts). Accepting a
 * transition is one synchronous SQLite insert: the pipeline is never blocked. Deliveries left
 * queued by an earlier run are sent first. The teardown stops taking transitions, lets healthy
 * receivers drain for at most `flushMs`, and says what is still queued (kept for the next start).
 *
 * @example const stop = startWebhooks(transitions$, ctx, { invalid: loaded.invalidWebhooks, apiBaseUrl }); await stop();
 */
export const startWebhooks = (transitions$: Observable<Transition>, ctx: Ctx, options: WebhookOptions = {}): Teardown => {
  for (const invalid of options.invalid ?? []) ctx.log.warn(describeInvalidWebhook(invalid));
  const entries = ctx.config.webhooks.filter((entry) => entry.enabled);
  if (entries.length === 0) return () => undefined;

  // This run's id: the deliveries it queues are its own until it stops (delivery-store.ts `claim`).
  const store = options.store ?? openQueue(ctx, ctx.log, { ...options, owner: randomUUID() });
  const version = options.version ?? packageVersion();
  const makeId = options.makeId ?? randomUUID;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const flushMs = options.flushMs ?? DEFAULT_FLUSH_MS;
  const log = createSinkLog(ctx.log, ctx.scheduler);
  let stopping: Promise<void> | undefined;
  let checkDrained = (): void => undefined;

  const metrics = options.metrics;
  const report = (event: BreakerEvent): void => {
    if (!metrics) return;
    if (event.kind === 'delivered' || event.kind === 'refused' || event.kind === 'failed') metrics.delivery(event.webhook, event.kind);
    if (event.kind === 'opened' || event.kind === 'retrying') metrics.retry(event.webhook);
    metrics.queueDepth(event.webhook, store.queued(event.webhook));
  };
  const dropped = (webhook: string, count: number, why: string): void => {
    log.dropped(webhook, count, why);
    for (let i = 0; i < count; i++) metrics?.delivery(webhook, 'dropped');
  };

  const breakers = new Map<string, Breaker>(
    entries.map((entry: WebhookEntry) => [
      entry.name,
      createBreaker({
        webhook: entry.name,
        store,
        post: options.post ?? gotPost,
        request: (delivery, at) => requestFor(entry, delivery.id, delivery.body, version, at),
        scheduler: ctx.scheduler,
        now: ctx.now,
        timeoutMs,
        concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
        backoff: options.delays ?? BACKOFF_MS,
        maxAttempts: (options.delays ?? BACKOFF_MS).length + 1,
        onEvent: (event) => {
          log.event(event);
          report(event);
          checkDrained();
        },
      }),
    ]),
  );

  const droppedSuperseded = (): void => {
    for (const [name, count] of store.takeSuperseded()) if (breakers.has(name) && count > 0) dropped(name, count, 'superseded: a newer state of the session was delivered');
  };
  for (const [name, count] of store.expire(ctx.now())) dropped(name, count, 'queued longer than the age limit');
  const resumed = new Map([...store.claim(ctx.now())].filter(([name, count]) => breakers.has(name) && count > 0));
  droppedSuperseded();
  if (resumed.size > 0) ctx.log.info(`webhooks: resuming deliveries queued by an earlier run (${listCounts(resumed)})`);
  // Alive for other agentwatch processes sharing the queue; and adopt what a stopped one (or a
  // replay) left waiting.
  const heartbeat = interval(HEARTBEAT_MS, ctx.scheduler).subscribe(() => {
    for (const [name, count] of store.expire(ctx.now())) dropped(name, count, 'queued longer than the age limit');
    const claimed = store.claim(ctx.now());
    droppedSuperseded();
    for (const [name, count] of claimed) {
      const breaker = breakers.get(name);
      if (!breaker || count === 0) continue;
      ctx.log.info(`webhook "${name}": took over ${count} queued deliver${count === 1 ? 'y' : 'ies'} from a stopped agentwatch or a replay`);
      breaker.kick();
    }
  });
  for (const name of breakers.keys()) metrics?.queueDepth(name, store.queued(name));
  for (const breaker of breakers.values()) breaker.kick();

  const accept = (transition: Announced): void => {
    store.recordState(sessionKey(transition), transition.to, ctx.now());
    for (const entry of entries) {
      if (!matchesWebhook(entry, transition)) continue;
      const id = makeId();
      let body: string;
      try {
        body = JSON.stringify(buildPayload(transition, { id, ...(options.apiBaseUrl ? { apiBaseUrl: options.apiBaseUrl } : {}) }));
      } catch (error) {
        // A transition that cannot be serialised (say, an invalid `at`) fails only itself.
        log.unbuildable(entry.name, id, error);
        continue;
      }
      const over = store.enqueue({ id, webhook: entry.name, body, createdAt: ctx.now(), session: sessionKey(transition) });
      if (over > 0) dropped(entry.name, over, 'the queue is at its size limit');
      metrics?.queueDepth(entry.name, store.queued(entry.name));
      breakers.get(entry.name)?.kick();
    }
  };

  // What receivers were told by earlier runs: the start of every session's chain of from/to.
  const told = store.lastStates();
  const replays$: Observable<Announced> = (options.state$ ?? NEVER).pipe(
    filter((state) => state.ready),
    take(1),
    mergeMap((state) => {
      const at = ctx.now();
      const replays: Announced[] = [];
      for (const [key, before] of told) {
        const session = state.sessions.get(key);
        if (!session) continue;
        const to = deriveActivity(session, at);
        if (to !== before) replays.push({ agent: session.agent, sessionId: session.sessionId, from: before, to, at, cwd: session.cwd, isSidechain: session.isSidechain, replayed: true });
      }
      if (replays.length > 0) ctx.log.info(`webhooks: announcing ${replays.length} change${replays.length === 1 ? '' : 's'} made while agentwatch was not running`);
      return replays;
    }),
  );
  const subscription = merge(replays$, transitions$.pipe(map((transition): Announced => transition)))
    .pipe(
      filter((transition) => isDeliverable(transition, ctx.config.exclude_cwd_substrings)),
      announceChanges(told),
    )
    .subscribe({
      next: accept,
      error: (error: unknown) => ctx.log.error(`webhooks stopped taking transitions: ${error instanceof Error ? error.message : String(error)}`),
    });

  /** Drained: nothing in flight, and every receiver either has an empty queue or is down. */
  const drained = (): boolean => {
    const counts = store.queuedCounts();
    return [...breakers].every(([name, breaker]) => breaker.inFlight() === 0 && (breaker.isOpen() || (counts.get(name) ?? 0) === 0));
  };

  return () => {
    stopping ??= new Promise<void>((resolve) => {
      subscription.unsubscribe();
      heartbeat.unsubscribe();
      let finished = false;
      const finish = (): void => {
        if (finished) return;
        finished = true;
        checkDrained = () => undefined;
        deadline.unsubscribe();
        for (const breaker of breakers.values()) {
          breaker.stop();
          breaker.abort();
        }
        log.flush();
        const left = new Map([...store.queuedCounts()].filter(([name]) => breakers.has(name)));
        const total = [...left.values()].reduce((sum, n) => sum + n, 0);
        if (total > 0) {
          ctx.log.warn(
            `webhooks: ${total} deliver${total === 1 ? 'y' : 'ies'} still queued at shutdown (${listCounts(left)}); kept in ${store.file === ':memory:' ? 'memory (lost: the queue file was unusable)' : store.file} for the next start`,
          );
        }
        if (!options.store) {
          store.release();
          store.close();
        }
        resolve();
      };
      const deadline = timer(flushMs, ctx.scheduler).subscribe(finish);
      // NOTE: checked after the event that may have drained the queues has been fully handled
      // (a microtask later), never from inside it, so the store is not closed under the breaker.
      checkDrained = () => {
        queueMicrotask(() => {
          if (!finished && drained()) finish();
        });
      };
      checkDrained();
    });
    return stopping;
  };
};

/**
 * `startWebhooks` as a pipeline sink: how the monitor starts it (app/sinks.ts).
 *
 * @example pipeline.start([makeWebhookSink({ invalid: [], apiBaseUrl, metrics })])
 */
export const makeWebhookSink =
  (options: WebhookOptions = {}): Sink =>
  ({ transitions$, state$ }, ctx) =>
    startWebhooks(transitions$, ctx, { state$, ...options });
