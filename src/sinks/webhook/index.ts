import { randomUUID } from 'node:crypto';
import { Subject, takeUntil, timer, type Observable } from 'rxjs';
import type { InvalidWebhook } from '../../config/effective.js';
import type { Ctx, Sink, Teardown } from '../../core/contracts.js';
import type { Transition } from '../../core/session.js';
import { webhookDeliveries, type DeliveryDeps } from './deliver.js';
import { gotPost } from './post.js';
import { describeInvalidWebhook, describeReport } from './report.js';
import { BACKOFF_MS } from './retry.js';
import { packageVersion } from './version.js';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_QUEUE_CAPACITY = 100;
/** How long shutdown waits for queued deliveries before abandoning them. */
export const DEFAULT_FLUSH_MS = 3_000;

export interface WebhookOptions extends Partial<Omit<DeliveryDeps, 'scheduler' | 'excludeCwdSubstrings'>> {
  /** `Effective.invalidWebhooks`: reported once, here, at startup. */
  readonly invalid?: readonly InvalidWebhook[];
  readonly flushMs?: number;
}

/**
 * Starts delivering `transitions$` to every valid, enabled entry of `ctx.config.webhooks`.
 * Subscribing never blocks the producer: each entry has its own bounded queue. The returned
 * teardown stops taking transitions, lets the queues drain for at most `flushMs`, then cancels
 * what is left.
 *
 * @example const stop = startWebhooks(transitions$, ctx, { invalid: loaded.invalidWebhooks, apiBaseUrl }); await stop();
 */
export const startWebhooks = (transitions$: Observable<Transition>, ctx: Ctx, options: WebhookOptions = {}): Teardown => {
  for (const invalid of options.invalid ?? []) ctx.log.warn(describeInvalidWebhook(invalid));
  const entries = ctx.config.webhooks.filter((entry) => entry.enabled);
  if (entries.length === 0) return () => undefined;

  const deps: DeliveryDeps = {
    post: options.post ?? gotPost,
    scheduler: ctx.scheduler,
    delays: options.delays ?? BACKOFF_MS,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    queueCapacity: options.queueCapacity ?? DEFAULT_QUEUE_CAPACITY,
    makeId: options.makeId ?? randomUUID,
    version: options.version ?? packageVersion(),
    excludeCwdSubstrings: ctx.config.exclude_cwd_substrings,
    ...(options.apiBaseUrl ? { apiBaseUrl: options.apiBaseUrl } : {}),
  };
  const flushMs = options.flushMs ?? DEFAULT_FLUSH_MS;

  // NOTE: the only Subject here: the shutdown signal, at the shell boundary. Ending the input
  // (rather than unsubscribing) is what lets the queues flush.
  const stop$ = new Subject<void>();
  let drained!: () => void;
  const done = new Promise<void>((resolve) => (drained = resolve));
  const subscription = webhookDeliveries(transitions$.pipe(takeUntil(stop$)), entries, deps).subscribe({
    next: (report) => {
      const line = describeReport(report, deps.timeoutMs);
      if (line) ctx.log[line.level](line.message);
    },
    complete: () => drained(),
    error: (error: unknown) => {
      // Unreachable by construction (every delivery ends in a report); said loudly if it happens.
      ctx.log.error(`webhooks stopped: ${error instanceof Error ? error.message : String(error)}`);
      drained();
    },
  });

  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= new Promise<void>((resolve) => {
      stop$.next();
      if (subscription.closed) return resolve();
      const deadline = timer(flushMs, ctx.scheduler).subscribe(() => {
        ctx.log.warn(`webhooks: deliveries still pending after ${flushMs / 1000} s at shutdown were abandoned`);
        subscription.unsubscribe();
        resolve();
      });
      void done.then(() => {
        deadline.unsubscribe();
        resolve();
      });
    });
    return stopping;
  };
};

/**
 * `startWebhooks` in the shape of `startPipeline`'s `sinks`.
 *
 * @example startPipeline(ctx, { ..., sinks: [makeWebhookSink({ invalid: loaded.invalidWebhooks, apiBaseUrl })] })
 */
export const makeWebhookSink =
  (options: WebhookOptions = {}): Sink =>
  ({ transitions$ }, ctx) =>
    startWebhooks(transitions$, ctx, options);
