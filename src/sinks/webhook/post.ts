import got from 'got';
import { Observable } from 'rxjs';
import type { WebhookRequest } from './payload.js';

/** What a receiver answered; any status (the caller decides what is a failure). */
export interface PostResponse {
  readonly status: number;
  readonly statusText: string;
  readonly body: string;
}

/**
 * Sends one request when subscribed; unsubscribing aborts it. Errors only for transport failures
 * (refused, reset, DNS...). Injected, so tests replace the network with marbles.
 */
export type Post = (request: WebhookRequest) => Observable<PostResponse>;

/**
 * The real `Post`, over got. No got retries or redirects: the caller decides when to try again (the
 * monitor's breaker.ts; `webhooks test` and `webhooks replay` make one attempt).
 */
export const gotPost: Post = (request) =>
  new Observable<PostResponse>((subscriber) => {
    const pending = got.post(request.url, {
      body: request.body,
      headers: request.headers,
      throwHttpErrors: false,
      followRedirect: false,
      retry: { limit: 0 },
      // The caller's timeout (on its scheduler) is the real one; this only bounds a stuck socket.
      timeout: { request: 120_000 },
    });
    pending.then(
      (response) => {
        subscriber.next({ status: response.statusCode, statusText: response.statusMessage ?? '', body: response.body });
        subscriber.complete();
      },
      (error: unknown) => {
        if (!subscriber.closed) subscriber.error(error);
      },
    );
    return () => pending.cancel();
  });
