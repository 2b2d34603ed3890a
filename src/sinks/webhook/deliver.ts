import { catchError, defer, filter, map, merge, of, share, timeout, type Observable, type SchedulerLike } from 'rxjs';
import type { WebhookEntry } from '../../config/schema.js';
import type { Transition } from '../../core/session.js';
import { coalesceDuplicates, COALESCE_WINDOW_MS } from './coalesce.js';
import { isDeliverable, matchesWebhook } from './filter.js';
import { buildPayload, buildRequest, type WebhookRequest } from './payload.js';
import type { Post, PostResponse } from './post.js';
import { concatBounded, type OverflowNotice } from './queue.js';
import { retryWithBackoff } from './retry.js';

/** A receiver answered with a status that is not 2xx. */
export class HttpStatusError extends Error {
  constructor(readonly response: PostResponse) {
    super(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
    this.name = 'HttpStatusError';
  }
}

/** Network errors, timeouts and 5xx are worth another attempt; 4xx (and 3xx) mean "fix your config". */
export const isRetryable = (error: unknown): boolean => !(error instanceof HttpStatusError) || error.response.status >= 500;

/** What happened to deliveries: the sink logs these, tests assert on them. */
export type DeliveryReport =
  | { readonly kind: 'delivered'; readonly entry: string; readonly id: string; readonly status: number; readonly attempts: number }
  | { readonly kind: 'failed'; readonly entry: string; readonly id: string; readonly attempts: number; readonly error: unknown }
  | { readonly kind: 'overflow_started'; readonly entry: string; readonly capacity: number }
  | { readonly kind: 'overflow_ended'; readonly entry: string; readonly dropped: number };

export interface DeliveryDeps {
  readonly post: Post;
  readonly scheduler: SchedulerLike;
  /** Waits before each retry; `[]` means a single attempt. */
  readonly delays: readonly number[];
  /** Per attempt, on `scheduler`. */
  readonly timeoutMs: number;
  /** Deliveries waiting behind the one in flight, per entry. */
  readonly queueCapacity: number;
  readonly makeId: () => string;
  readonly version: string;
  readonly apiBaseUrl?: string;
  readonly excludeCwdSubstrings?: readonly string[];
}

/**
 * One delivery with its retries. Never errors: the outcome is a report. Every attempt sends the
 * same request (same id and bytes), so a receiver can de-duplicate on X-Agentwatch-Delivery.
 */
export const deliverRequest = (entryName: string, request: WebhookRequest, deps: DeliveryDeps): Observable<DeliveryReport> =>
  defer(() => {
    let attempts = 0;
    return defer(() => {
      attempts += 1;
      return deps.post(request);
    }).pipe(
      timeout({ first: deps.timeoutMs, scheduler: deps.scheduler }),
      map((response) => {
        if (response.status < 200 || response.status > 299) throw new HttpStatusError(response);
        return { kind: 'delivered', entry: entryName, id: request.id, status: response.status, attempts } as const;
      }),
      retryWithBackoff<DeliveryReport>(isRetryable, deps.delays, deps.scheduler),
      catchError((error: unknown) => of({ kind: 'failed', entry: entryName, id: request.id, attempts, error } as const)),
    );
  });

const overflowReport = (entry: string, notice: OverflowNotice<Transition>): DeliveryReport =>
  notice.kind === 'overflow_started'
    ? { kind: 'overflow_started', entry, capacity: notice.capacity }
    : { kind: 'overflow_ended', entry, dropped: notice.dropped };

/** The deliveries of one entry: its filters, then its own bounded queue, one request at a time. */
export const deliverToEntry = (entry: WebhookEntry, transitions$: Observable<Transition>, deps: DeliveryDeps): Observable<DeliveryReport> =>
  transitions$.pipe(
    filter((transition) => matchesWebhook(entry, transition)),
    concatBounded(
      deps.queueCapacity,
      (transition) => {
        const id = deps.makeId();
        // NOTE: a transition that cannot be serialised (say, an invalid `at`) fails only itself.
        return defer(() => {
          const payload = buildPayload(transition, { id, ...(deps.apiBaseUrl ? { apiBaseUrl: deps.apiBaseUrl } : {}) });
          return deliverRequest(entry.name, buildRequest(entry, payload, deps.version), deps);
        }).pipe(catchError((error: unknown) => of<DeliveryReport>({ kind: 'failed', entry: entry.name, id, attempts: 0, error })));
      },
      (notice) => overflowReport(entry.name, notice),
    ),
  );

/**
 * Every enabled entry gets its own queue, so a slow or dead receiver only delays itself.
 * Duplicates are coalesced once, before the fan-out. Completes when `transitions$` completes and
 * every queue has drained.
 */
export const webhookDeliveries = (
  transitions$: Observable<Transition>,
  entries: readonly WebhookEntry[],
  deps: DeliveryDeps,
): Observable<DeliveryReport> => {
  const shared$ = transitions$.pipe(
    filter((transition) => isDeliverable(transition, deps.excludeCwdSubstrings ?? [])),
    coalesceDuplicates(COALESCE_WINDOW_MS, deps.scheduler),
    share(),
  );
  return merge(...entries.filter((entry) => entry.enabled).map((entry) => deliverToEntry(entry, shared$, deps)));
};
