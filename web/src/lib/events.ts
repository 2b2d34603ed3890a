import { nextDelay, retryAfterMs } from './backoff.js';
import { markLatest } from './perf-mark.js';
import { createMessageParser } from './sse-parse.js';
import type { PatchFrame, ReadyFrame, SessionsFrame } from './wire.js';

/**
 * Follows `GET /api/events?format=patch` with fetch (not EventSource: fetch sends the token in
 * the Authorization header, never in a URL, and sees the status of a refused stream). Any failure
 * (network, 401, 429, 5xx, a stalled stream) reconnects with backoff; a 401 is also reported, so
 * the app can check the token and fall back to the login when it is really refused.
 * A server without the patch format answers `update` events, read as full snapshots.
 */

export type StreamState = 'connecting' | 'live' | 'retrying';

export interface EventHandlers {
  /** A full listing: the `snapshot` on connect (or an `update` event; docs/api.md). */
  readonly onSessions: (frame: SessionsFrame) => void;
  readonly onPatch: (frame: PatchFrame) => void;
  readonly onReady: (frame: ReadyFrame) => void;
  readonly onState: (state: StreamState, detail: string) => void;
  /** The stream was refused with 401 (it keeps retrying until stopped). */
  readonly onUnauthorized: () => void;
}

/** No byte for this long (the server sends a heartbeat every 15 s): the stream is dead, reconnect. */
const STALL_MS = 45_000;

export const followEvents = (token: string, handlers: EventHandlers, url = 'api/events?format=patch'): { stop: () => void } => {
  let stopped = false;
  let delay: number | undefined;
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const retry = (why: string, atLeastMs = 0): void => {
    if (stopped) return;
    delay = nextDelay(delay);
    const wait = Math.max(delay, atLeastMs);
    handlers.onState('retrying', `${why}; retrying in ${Math.round(wait / 1000)} s`);
    timer = setTimeout(connect, wait);
  };

  const dispatch = (event: string, data: string): void => {
    // Marks for the browser's performance timeline (bench/gui.mjs reads them): a listing whole, then
    // applied. Only the latest pair is kept, so a page open all day holds two marks, not one per listing.
    const listing = event === 'snapshot' || event === 'update';
    if (listing) markLatest('agentwatch:listing-received');
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      return;
    }
    if (listing) {
      delay = undefined;
      handlers.onState('live', '');
      handlers.onSessions(value as SessionsFrame);
      markLatest('agentwatch:listing-applied');
    } else if (event === 'patch') handlers.onPatch(value as PatchFrame);
    else if (event === 'ready') handlers.onReady(value as ReadyFrame);
  };

  const connect = async (): Promise<void> => {
    if (stopped) return;
    handlers.onState('connecting', '');
    const current = new AbortController();
    controller = current;
    let stall: ReturnType<typeof setTimeout> | undefined;
    const armStall = (): void => {
      clearTimeout(stall);
      stall = setTimeout(() => current.abort(new Error('stalled')), STALL_MS);
    };
    try {
      armStall();
      const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: current.signal, cache: 'no-store' });
      if (!response.ok || !response.body) {
        clearTimeout(stall);
        retry(`the event stream answered ${response.status}`, retryAfterMs(response.headers.get('retry-after')));
        // The app checks the token on its own and stops following when it is really refused.
        if (response.status === 401) handlers.onUnauthorized();
        return;
      }
      const parser = createMessageParser(dispatch);
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        armStall();
        const { value, done } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
      clearTimeout(stall);
      retry('the event stream ended');
    } catch (error) {
      clearTimeout(stall);
      if (stopped) return;
      retry(current.signal.aborted ? 'the event stream stalled' : `the event stream failed (${(error as Error).message})`);
    }
  };

  void connect();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      controller?.abort();
    },
  };
};
