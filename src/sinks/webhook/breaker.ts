import { defer, timeout, TimeoutError, type SchedulerLike, type Subscription } from 'rxjs';
import type { DeliveryStore, QueuedDelivery } from './delivery-store.js';
import type { WebhookRequest } from './payload.js';
import type { Post, PostResponse } from './post.js';

/**
 * One receiver's dispatcher with a circuit breaker, over the durable queue:
 *
 * - closed (receiver healthy): up to `concurrency` deliveries in flight, taken in queue order;
 * - a network error, timeout or 5xx opens it: that delivery stays queued (attempt counted) and
 *   everything behind it is held; the head alone is retried after `backoff[0]`, `backoff[1]`, ...
 *   (the last wait repeats) until the receiver answers;
 * - the first success closes it and the queue drains in order, `concurrency` at a time;
 * - a 4xx is the receiver refusing this delivery: recorded, never retried, the queue moves on;
 * - a delivery that fails `maxAttempts` times while other deliveries go through is given up.
 *
 * Nothing is dropped here: only the store's size and age bounds drop deliveries. Timers run on
 * `scheduler`, so marble tests drive hours of outage in virtual time.
 */

export type BreakerEvent =
  | { readonly kind: 'delivered'; readonly webhook: string; readonly id: string; readonly status: number; readonly attempts: number; readonly latencyMs: number }
  | {
      readonly kind: 'refused';
      readonly webhook: string;
      readonly id: string;
      readonly status: number;
      readonly reason: string;
      readonly body: string;
      readonly attempts: number;
    }
  | {
      readonly kind: 'failed';
      readonly webhook: string;
      readonly id: string;
      readonly reason: string;
      /** The attempts that count towards giving up (made while the receiver was otherwise up): `maxAttempts`. */
      readonly attempts: number;
      /** Present when more were made in all (the store's count: those while the receiver was down too). */
      readonly allAttempts?: number;
    }
  | { readonly kind: 'opened'; readonly webhook: string; readonly id: string; readonly reason: string; readonly retryInMs: number }
  | { readonly kind: 'retrying'; readonly webhook: string; readonly id: string; readonly reason: string; readonly attempts: number; readonly retryInMs: number }
  | { readonly kind: 'closed'; readonly webhook: string; readonly downForMs: number; readonly queued: number };

export interface BreakerDeps {
  readonly webhook: string;
  readonly store: DeliveryStore;
  readonly post: Post;
  /** The request of one attempt (signatures with a timestamp are made per attempt). */
  readonly request: (delivery: QueuedDelivery, at: number) => WebhookRequest;
  readonly scheduler: SchedulerLike;
  /** Wall-clock time for stamps (epoch ms); the scheduler's clock in tests. */
  readonly now: () => number;
  readonly timeoutMs: number;
  readonly concurrency: number;
  /** Waits before each retry of the head while the receiver is down; the last repeats. */
  readonly backoff: readonly number[];
  /**
   * A delivery that fails this many times while the receiver is otherwise up (each failure with
   * the breaker closed, i.e. after some delivery went through) is given up: the documented "4
   * attempts" for a receiver that refuses one delivery with 5xx, without losing anything to an
   * outage (failures while the breaker is open do not count).
   */
  readonly maxAttempts: number;
  readonly onEvent: (event: BreakerEvent) => void;
}

export interface Breaker {
  /** New deliveries may be waiting: send what the state allows. */
  readonly kick: () => void;
  readonly isOpen: () => boolean;
  readonly inFlight: () => number;
  /** Stop sending; requests in flight are left to finish (or are cancelled by `abort`). */
  readonly stop: () => void;
  /** Cancel requests in flight; their deliveries stay queued for the next start. */
  readonly abort: () => void;
  /** Resolves when nothing is in flight. */
  readonly idle: () => Promise<void>;
}

/** A short reason for a failed attempt. */
export const failureReason = (outcome: { response?: PostResponse; error?: unknown }, timeoutMs: number): string => {
  if (outcome.response) {
    const { status, statusText } = outcome.response;
    return `HTTP ${status}${statusText ? ` ${statusText}` : ''}`;
  }
  const error = outcome.error;
  if (error instanceof TimeoutError) return `no response within ${timeoutMs / 1000} s`;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
};

/** Queued deliveries looked at beyond the free room, to find ones of sessions not in flight. */
const LOOKAHEAD = 64;

export const createBreaker = (deps: BreakerDeps): Breaker => {
  const flying = new Map<string, Subscription>();
  // The session of each delivery in flight: one at a time per session, so none overtakes an older one.
  const flyingSessions = new Map<string, string>();
  let open = false;
  let openedAt = 0;
  let failuresInRow = 0;
  // Deliveries that failed while the receiver was up, with how often: probes avoid them, and one
  // that reaches maxAttempts is given up.
  const suspects = new Map<string, number>();
  let probeTimer: Subscription | undefined;
  let stopped = false;
  const idleWaiters: (() => void)[] = [];
  let filling = false;
  let again = false;

  const settleIdle = (): void => {
    if (flying.size > 0) return;
    for (const resolve of idleWaiters.splice(0)) resolve();
  };

  const waitFor = (failures: number): number => deps.backoff[Math.min(failures - 1, deps.backoff.length - 1)] ?? 0;

  const scheduleProbe = (): number => {
    failuresInRow += 1;
    const wait = waitFor(failuresInRow);
    probeTimer?.unsubscribe();
    probeTimer = deps.scheduler.schedule(() => {
      probeTimer = undefined;
      probe();
    }, wait);
    return wait;
  };

  const probe = (): void => {
    if (stopped || flying.size > 0) return;
    // The oldest delivery not under suspicion proves the receiver best; a suspect one only when
    // nothing else waits.
    const waiting = deps.store.nextQueued(deps.webhook, 64, new Set());
    const head = waiting.find((delivery) => !suspects.has(delivery.id)) ?? waiting[0];
    if (!head) {
      // Nothing left to prove the receiver with (it aged out): start healthy next time.
      open = false;
      failuresInRow = 0;
      return;
    }
    send(head);
  };

  const settle = (delivery: QueuedDelivery, started: number, outcome: { response?: PostResponse; error?: unknown }): void => {
    flying.delete(delivery.id);
    flyingSessions.delete(delivery.id);
    const at = deps.now();
    const latencyMs = deps.scheduler.now() - started;
    const attempts = delivery.attempts + 1;
    const status = outcome.response?.status ?? null;
    // An answer below 500 (delivered or refused) ends any suspicion of this delivery.
    if (status !== null && status < 500) suspects.delete(delivery.id);
    if (status !== null && status >= 200 && status <= 299) {
      deps.store.markDelivered(delivery.id, { at, status, error: null, latencyMs });
      deps.onEvent({ kind: 'delivered', webhook: deps.webhook, id: delivery.id, status, attempts, latencyMs });
      if (open) {
        open = false;
        failuresInRow = 0;
        probeTimer?.unsubscribe();
        probeTimer = undefined;
        deps.onEvent({ kind: 'closed', webhook: deps.webhook, downForMs: deps.scheduler.now() - openedAt, queued: deps.store.queuedCounts().get(deps.webhook) ?? 0 });
      }
    } else if (status !== null && status < 500) {
      const body = outcome.response?.body ?? '';
      const reason = failureReason(outcome, deps.timeoutMs);
      deps.store.markRefused(delivery.id, { at, status, error: reason, latencyMs });
      deps.onEvent({ kind: 'refused', webhook: deps.webhook, id: delivery.id, status, reason, body, attempts });
      // A refusal proves the receiver is up: treat it like a success for the breaker.
      if (open) {
        open = false;
        failuresInRow = 0;
        probeTimer?.unsubscribe();
        probeTimer = undefined;
      }
    } else {
      const reason = failureReason(outcome, deps.timeoutMs);
      const healthyFailures = open ? 0 : (suspects.get(delivery.id) ?? 0) + 1;
      if (healthyFailures >= deps.maxAttempts) {
        suspects.delete(delivery.id);
        deps.store.markFailed(delivery.id, { at, status, error: reason, latencyMs });
        deps.onEvent({
          kind: 'failed',
          webhook: deps.webhook,
          id: delivery.id,
          reason,
          attempts: healthyFailures,
          ...(attempts > healthyFailures ? { allAttempts: attempts } : {}),
        });
      } else if (!open) {
        // A 5xx may be this body's alone (the receiver choking on it): the probes try others
        // first. No answer at all (refused, reset, timed out) says the receiver is down, not that
        // this delivery is bad: it stays the oldest, probed first, and drains first.
        if (status !== null) suspects.set(delivery.id, healthyFailures);
        deps.store.recordRetry(delivery.id, { at, status, error: reason, latencyMs });
        open = true;
        openedAt = deps.scheduler.now();
        failuresInRow = 0;
        const retryInMs = stopped ? 0 : scheduleProbe();
        deps.onEvent({ kind: 'opened', webhook: deps.webhook, id: delivery.id, reason, retryInMs });
      } else {
        deps.store.recordRetry(delivery.id, { at, status, error: reason, latencyMs });
        if (!probeTimer && !stopped && flying.size === 0) {
          const retryInMs = scheduleProbe();
          deps.onEvent({ kind: 'retrying', webhook: deps.webhook, id: delivery.id, reason, attempts, retryInMs });
        }
      }
    }
    fill();
    settleIdle();
  };

  const send = (delivery: QueuedDelivery): void => {
    const started = deps.scheduler.now();
    let done = false;
    const subscription = defer(() => deps.post(deps.request(delivery, deps.now())))
      .pipe(timeout({ first: deps.timeoutMs, scheduler: deps.scheduler }))
      .subscribe({
        next: (response) => {
          if (done) return;
          done = true;
          settle(delivery, started, { response });
        },
        error: (error: unknown) => {
          if (done) return;
          done = true;
          settle(delivery, started, { error });
        },
        complete: () => {
          if (done) return;
          done = true;
          settle(delivery, started, { error: new Error('the request ended without an answer') });
        },
      });
    if (!done) {
      flying.set(delivery.id, subscription);
      flyingSessions.set(delivery.id, delivery.session);
    }
  };

  // NOTE: a post that answers synchronously settles inside send(), which calls fill() again; the
  // flag turns that recursion (10,000 deep for a full queue) into another turn of this loop.
  const fill = (): void => {
    if (filling) {
      again = true;
      return;
    }
    filling = true;
    try {
      do {
        again = false;
        if (stopped || open) return;
        const room = deps.concurrency - flying.size;
        if (room <= 0) return;
        // Per session in queue order: a delivery waits while an older one of its session is in
        // flight (a session's later rows are skipped with it), so receivers get each session's
        // changes in order; other sessions fill the room meanwhile.
        const busy = new Set([...flyingSessions.values()].filter((session) => session !== ''));
        let sent = 0;
        for (const delivery of deps.store.nextQueued(deps.webhook, room + LOOKAHEAD, new Set(flying.keys()))) {
          if (stopped || open) return;
          if (sent >= room) break;
          if (delivery.session !== '' && busy.has(delivery.session)) continue;
          busy.add(delivery.session);
          sent += 1;
          send(delivery);
        }
      } while (again);
    } finally {
      filling = false;
    }
  };

  return {
    kick: fill,
    isOpen: () => open,
    inFlight: () => flying.size,
    stop: () => {
      stopped = true;
      probeTimer?.unsubscribe();
      probeTimer = undefined;
    },
    abort: () => {
      for (const subscription of flying.values()) subscription.unsubscribe();
      flying.clear();
      flyingSessions.clear();
      settleIdle();
    },
    idle: () => (flying.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
  };
};
