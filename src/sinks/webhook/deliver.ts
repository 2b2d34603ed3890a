import { catchError, defer, map, of, timeout, type Observable, type SchedulerLike } from 'rxjs';
import type { WebhookRequest } from './payload.js';
import type { Post, PostResponse } from './post.js';
import { retryWithBackoff } from './retry.js';

/** A receiver answered with a status that is not 2xx. */
export class HttpStatusError extends Error {
  constructor(readonly response: PostResponse) {
    super(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
    this.name = 'HttpStatusError';
  }
}

/** Network errors, timeouts and 5xx are worth another attempt; 4xx (and 3xx) mean "fix your config". */
const isRetryable = (error: unknown): boolean => !(error instanceof HttpStatusError) || error.response.status >= 500;

/** What happened to deliveries: the sink logs these, tests assert on them. */
export type DeliveryReport =
  | { readonly kind: 'delivered'; readonly entry: string; readonly id: string; readonly status: number; readonly attempts: number }
  | { readonly kind: 'failed'; readonly entry: string; readonly id: string; readonly attempts: number; readonly error: unknown };

export interface DeliveryDeps {
  readonly post: Post;
  readonly scheduler: SchedulerLike;
  /** Waits before each retry; `[]` means a single attempt. */
  readonly delays: readonly number[];
  /** Per attempt, on `scheduler`. */
  readonly timeoutMs: number;
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

