import { TimeoutError } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { deliverRequest, HttpStatusError, type DeliveryDeps } from '../../../src/sinks/webhook/deliver.js';
import type { Post, PostResponse } from '../../../src/sinks/webhook/post.js';
import { BACKOFF_MS } from '../../../src/sinks/webhook/retry.js';

const request = { id: 'd1', url: 'http://127.0.0.1:9/h', body: '{}', headers: {} };
const response = (status: number, body = ''): PostResponse => ({ status, statusText: status === 200 ? 'OK' : 'Nope', body });

describe('deliverRequest: retry schedule (marbles)', () => {
  let rx: TestScheduler;
  const deps = (post: Post, over: Partial<DeliveryDeps> = {}): DeliveryDeps => ({
    post,
    scheduler: rx,
    delays: BACKOFF_MS,
    timeoutMs: 10_000,
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

