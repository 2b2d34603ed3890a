import { TimeoutError } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { deliverRequest, HttpStatusError, webhookDeliveries, type DeliveryDeps } from '../../../src/sinks/webhook/deliver.js';
import type { Post, PostResponse } from '../../../src/sinks/webhook/post.js';
import { BACKOFF_MS } from '../../../src/sinks/webhook/retry.js';
import { counterIds, entry, transition } from './transitions.js';

const request = { id: 'd1', url: 'http://127.0.0.1:9/h', body: '{}', headers: {} };
const response = (status: number, body = ''): PostResponse => ({ status, statusText: status === 200 ? 'OK' : 'Nope', body });

describe('deliverRequest: retry schedule (marbles)', () => {
  let rx: TestScheduler;
  const deps = (post: Post, over: Partial<DeliveryDeps> = {}): DeliveryDeps => ({
    post,
    scheduler: rx,
    delays: BACKOFF_MS,
    timeoutMs: 10_000,
    queueCapacity: 10,
    makeId: counterIds(),
    version: 'test',
    ...over,
  });
  beforeEach(() => {
    rx = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('retries network errors after 1 s, 5 s and 30 s: 4 attempts, then one failed report', () => {
    rx.run(({ cold, expectObservable, expectSubscriptions }) => {
      const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      const network = cold<PostResponse>('#', undefined, refused);
      expectObservable(deliverRequest('h', request, deps(() => network))).toBe('36s (f|)', {
        f: { kind: 'failed', entry: 'h', id: 'd1', attempts: 4, error: refused },
      });
      expectSubscriptions(network.subscriptions).toBe(['(^!)', '1s (^!)', '6s (^!)', '36s (^!)']);
    });
  });

  it('retries a 5xx and reports the later success with its attempt count', () => {
    rx.run(({ cold, expectObservable, expectSubscriptions }) => {
      const answers = [cold('-(r|)', { r: response(503) }), cold('-(r|)', { r: response(200) })];
      let calls = 0;
      const post: Post = () => answers[Math.min(calls++, 1)]!;
      expectObservable(deliverRequest('h', request, deps(post))).toBe('1002ms (d|)', {
        d: { kind: 'delivered', entry: 'h', id: 'd1', status: 200, attempts: 2 },
      });
      expectSubscriptions(answers[0]!.subscriptions).toBe('^!');
      expectSubscriptions(answers[1]!.subscriptions).toBe('1001ms ^!');
    });
  });

  it('never retries a 4xx', () => {
    rx.run(({ cold, expectObservable, expectSubscriptions }) => {
      const notFound = cold('-(r|)', { r: response(404, 'no such hook') });
      expectObservable(deliverRequest('h', request, deps(() => notFound))).toBe('-(f|)', {
        f: { kind: 'failed', entry: 'h', id: 'd1', attempts: 1, error: new HttpStatusError(response(404, 'no such hook')) },
      });
      expectSubscriptions(notFound.subscriptions).toBe('^!');
    });
  });

  it('times out a hanging attempt on the scheduler and retries it like a network error', () => {
    rx.run(({ cold, expectObservable, expectSubscriptions }) => {
      const hanging = cold<PostResponse>('-');
      // attempt (10 s) + 1 s + attempt + 5 s + attempt + 30 s + attempt = 76 s
      expectObservable(deliverRequest('h', request, deps(() => hanging))).toBe('76s (f|)', {
        f: { kind: 'failed', entry: 'h', id: 'd1', attempts: 4, error: expect.any(TimeoutError) },
      });
      expectSubscriptions(hanging.subscriptions).toBe(['^ 9999ms !', '11s ^ 9999ms !', '26s ^ 9999ms !', '66s ^ 9999ms !']);
    });
  });
});

describe('webhookDeliveries: queues (marbles)', () => {
  let rx: TestScheduler;
  beforeEach(() => {
    rx = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });
  const sessions = { a: transition({ sessionId: 'a' }), b: transition({ sessionId: 'b' }), c: transition({ sessionId: 'c' }), d: transition({ sessionId: 'd' }) };

  it('bounds the queue: one in flight, `capacity` waiting, the rest dropped and announced once per burst', () => {
    rx.run(({ hot, cold, expectObservable }) => {
      const input = hot('abcd', sessions);
      const slow = cold('10ms (r|)', { r: response(200) });
      const deps: DeliveryDeps = { post: () => slow, scheduler: rx, delays: [], timeoutMs: 60_000, queueCapacity: 1, makeId: counterIds(), version: 't' };
      expectObservable(webhookDeliveries(input, [entry({ name: 'h' })], deps)).toBe('--s 7ms x 9ms (ye)', {
        s: { kind: 'overflow_started', entry: 'h', capacity: 1 },
        x: { kind: 'delivered', entry: 'h', id: 'd1', status: 200, attempts: 1 },
        y: { kind: 'delivered', entry: 'h', id: 'd2', status: 200, attempts: 1 },
        e: { kind: 'overflow_ended', entry: 'h', dropped: 2 },
      });
    });
  });

  it('a hanging receiver delays only its own entry', () => {
    rx.run(({ hot, cold, expectObservable }) => {
      const input = hot('a 9ms b', sessions);
      const hanging = cold<PostResponse>('-');
      const fast = cold('(r|)', { r: response(204) });
      const post: Post = (req) => (req.url.includes('dead') ? hanging : fast);
      const deps: DeliveryDeps = { post, scheduler: rx, delays: [], timeoutMs: 30_000, queueCapacity: 10, makeId: counterIds(), version: 't' };
      const entries = [entry({ name: 'dead', url: 'http://127.0.0.1:9/dead' }), entry({ name: 'live', url: 'http://127.0.0.1:9/live' })];
      // `dead` times out at 30 s, then starts `b` (waiting behind it) which times out at 60 s.
      expectObservable(webhookDeliveries(input, entries, deps), '^ 70s !').toBe('x 9ms y 29989ms f 29999ms g', {
        x: { kind: 'delivered', entry: 'live', id: 'd2', status: 204, attempts: 1 },
        y: { kind: 'delivered', entry: 'live', id: 'd3', status: 204, attempts: 1 },
        f: { kind: 'failed', entry: 'dead', id: 'd1', attempts: 1, error: expect.any(TimeoutError) },
        g: { kind: 'failed', entry: 'dead', id: 'd4', attempts: 1, error: expect.any(TimeoutError) },
      });
    });
  });

  it('completes only after the queues drain when the input completes (the shutdown flush)', () => {
    rx.run(({ hot, cold, expectObservable }) => {
      const input = hot('ab|', sessions);
      const slow = cold('5ms (r|)', { r: response(200) });
      const deps: DeliveryDeps = { post: () => slow, scheduler: rx, delays: [], timeoutMs: 60_000, queueCapacity: 10, makeId: counterIds(), version: 't' };
      expectObservable(webhookDeliveries(input, [entry({ name: 'h' })], deps)).toBe('5ms x 4ms (y|)', {
        x: { kind: 'delivered', entry: 'h', id: 'd1', status: 200, attempts: 1 },
        y: { kind: 'delivered', entry: 'h', id: 'd2', status: 200, attempts: 1 },
      });
    });
  });
});
