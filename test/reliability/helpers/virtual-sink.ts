import type { Subject} from 'rxjs';
import { Observable, VirtualAction, VirtualTimeScheduler } from 'rxjs';
import type { Transition } from '../../../src/core/session.js';
import type { Teardown } from '../../../src/core/contracts.js';
import { startWebhooks, type WebhookOptions } from '../../../src/sinks/webhook/index.js';
import { gotPost, type Post } from '../../../src/sinks/webhook/post.js';
import { testCtx } from '../../sinks/webhook/ctx.js';

/** 2026-11-21T12:00:00Z: virtual time 0. */
export const EPOCH = Date.UTC(2026, 10, 21, 12, 0, 0);

/**
 * The webhook sink over real HTTP on virtual time: `advance(ms)` runs the timers (backoff,
 * timeouts) of `ms` virtual milliseconds, then waits (really) until every request that is not
 * meant to hang has been answered, so ten minutes of outage take a second or two.
 */
export const virtualSink = (webhooks: Record<string, unknown>[], hanging: (url: string) => boolean, cacheHome?: string) => {
  const scheduler = new VirtualTimeScheduler(VirtualAction, Number.POSITIVE_INFINITY);
  const made = testCtx({ webhooks }, scheduler);
  const env = cacheHome === undefined ? made.ctx.env : { ...made.ctx.env, XDG_CACHE_HOME: cacheHome };
  const ctx = { ...made.ctx, env, now: () => EPOCH + scheduler.now() };
  const pending = new Map<number, string>();
  let next = 0;
  const post: Post = (request) =>
    new Observable((subscriber) => {
      const key = (next += 1);
      pending.set(key, request.url);
      const inner = gotPost(request).subscribe(subscriber);
      return () => {
        pending.delete(key);
        inner.unsubscribe();
      };
    });

  const settle = async (): Promise<void> => {
    const deadline = Date.now() + 30_000;
    while ([...pending.values()].some((url) => !hanging(url))) {
      if (Date.now() > deadline) throw new Error(`requests still unanswered after 30 s: ${[...pending.values()].join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  };

  const advance = async (ms: number): Promise<void> => {
    await settle();
    const target = scheduler.frame + ms;
    scheduler.maxFrames = target;
    scheduler.flush();
    scheduler.frame = target;
    await settle();
  };

  const start = (transitions$: Subject<Transition>, options: WebhookOptions = {}): Teardown =>
    startWebhooks(transitions$, ctx, { post, version: '1.2.3', ...options });

  /** Stops a sink: its flush deadline runs on virtual time too. */
  const stop = async (teardown: Teardown): Promise<void> => {
    const stopped = Promise.resolve(teardown());
    for (let i = 0; i < 10; i++) await advance(1_000);
    await stopped;
  };

  return { scheduler, ctx, lines: made.lines, env: ctx.env, root: made.root, advance, start, stop, pendingCount: () => pending.size };
};
