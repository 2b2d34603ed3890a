import type { FastifyInstance } from 'fastify';
import { Subscription, type SchedulerLike } from 'rxjs';
import { connectionFrames, patchConnectionFrames, sharedPatches, sharedUpdateFrames, type SseTiming } from './sse-frames.js';
import type { SessionStore } from './store.js';

const isPatchFormat = (query: unknown): boolean =>
  typeof query === 'object' && query !== null && 'format' in query && (query as { format: unknown }).format === 'patch';

/** A client that stops reading is dropped once this much is queued for it, instead of growing memory. */
const DEFAULT_MAX_BACKLOG_BYTES = 8 * 1024 * 1024;

/**
 * `GET /api/events[?format=patch]`: the shell around `sse-frames.ts`. Each connection subscribes to the shared
 * frames; `preClose` ends every open stream so `app.close()` completes (an open SSE response
 * would otherwise keep the server alive).
 */
export const registerEvents = (
  app: FastifyInstance,
  deps: { readonly store: SessionStore; readonly timing: SseTiming; readonly scheduler: SchedulerLike; readonly maxBacklogBytes?: number },
): void => {
  const maxBacklog = deps.maxBacklogBytes ?? DEFAULT_MAX_BACKLOG_BYTES;
  const updates$ = sharedUpdateFrames(deps.store.snapshot$, deps.timing, deps.scheduler);
  const patches$ = sharedPatches(deps.store, deps.timing, deps.scheduler);
  const open = new Set<() => void>();

  app.addHook('preClose', (done) => {
    for (const close of [...open]) close();
    done();
  });

  app.get('/api/events', { config: { access: 'token-or-query' }, exposeHeadRoute: false }, (request, reply) => {
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // nginx and similar proxies buffer responses unless told not to.
      'x-accel-buffering': 'no',
    });
    // Clients reconnect after 3 s when the stream drops (server restart).
    raw.write('retry: 3000\n\n');

    let closed = false;
    const subscription = new Subscription();
    const close = (): void => {
      if (closed) return;
      closed = true;
      open.delete(close);
      subscription.unsubscribe();
      if (!raw.writableEnded) raw.end();
    };
    subscription.add(
      // `?format=patch`: a snapshot, then only what changed (docs/api.md); default: lazyagent's `update`.
      (isPatchFormat(request.query)
        ? patchConnectionFrames(deps.store.current, patches$, deps.timing, deps.scheduler)
        : connectionFrames(deps.store.current, updates$, deps.timing, deps.scheduler)
      ).subscribe({
        next: (frame) => {
          if (closed) return;
          raw.write(frame);
          if (raw.writableLength > maxBacklog) {
            // NOTE: destroy, not end: end() would keep the whole backlog in memory until it drains.
            close();
            raw.destroy();
          }
        },
        error: (error: unknown) => {
          request.log.error({ err: error }, 'SSE stream failed');
          close();
        },
      }),
    );
    open.add(close);
    request.raw.on('close', close);
    raw.on('error', close);
  });
};
