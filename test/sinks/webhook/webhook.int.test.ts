import { Observable, Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Transition } from '../../../src/core/session.js';
import { openDeliveryStore } from '../../../src/sinks/webhook/delivery-store.js';
import { startWebhooks } from '../../../src/sinks/webhook/index.js';
import { gotPost, type Post } from '../../../src/sinks/webhook/post.js';
import { testCtx } from './ctx.js';
import { startReceiver, type Receiver } from './receiver.js';
import { counterIds, transition } from './transitions.js';

// Real HTTP over loopback through got; only the backoff delays are shortened (the real 1/5/30 s
// schedule is proven in deliver.marble.test.ts).
const FAST = { delays: [20, 20, 20], timeoutMs: 2_000, version: '9.8.7' } as const;

describe('webhooks against a real receiver', () => {
  let receiver: Receiver;
  let transitions$: Subject<Transition>;
  beforeEach(async () => {
    receiver = await startReceiver({ '/signed': 'It is a secret to everybody' });
    transitions$ = new Subject<Transition>();
  });
  afterEach(async () => {
    await receiver.close();
  });

  it('posts the documented payload and headers; the receiver verifies the signature', async () => {
    const { ctx } = testCtx({
      webhooks: [
        { name: 'signed', url: receiver.url('/signed'), secret: 'It is a secret to everybody' },
        { name: 'plain', url: receiver.url('/plain') },
      ],
    });
    const stop = startWebhooks(transitions$, ctx, { ...FAST, apiBaseUrl: 'http://127.0.0.1:7421' });
    transitions$.next(transition({ sessionId: 'sess-1', agent: 'codex', from: 'running', to: 'waiting', cwd: '/work/ünï', at: Date.UTC(2026, 10, 21, 1, 2, 3) }));
    await stop();

    expect(receiver.received.map((r) => r.path).sort()).toEqual(['/plain', '/signed']);
    const signed = receiver.received.find((r) => r.path === '/signed')!;
    expect(signed.signatureValid).toBe(true);
    expect(signed.headers['content-type']).toBe('application/json');
    expect(signed.headers['user-agent']).toBe('agentwatch/9.8.7');
    expect(signed.headers['x-agentwatch-event']).toBe('state_transition');
    const body = signed.json as Record<string, unknown>;
    expect(signed.headers['x-agentwatch-delivery']).toBe(body.id);
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      event: 'state_transition',
      session_id: 'sess-1',
      agent: 'codex',
      from: 'running',
      to: 'waiting',
      project_path: '/work/ünï',
      timestamp: '2026-11-21T01:02:03.000Z',
      api: { session_url: 'http://127.0.0.1:7421/api/sessions/sess-1' },
    });
    const plain = receiver.received.find((r) => r.path === '/plain')!;
    expect(plain.headers['x-agentwatch-signature']).toBeUndefined();
    expect(plain.json).toMatchObject({ session_id: 'sess-1' });
    expect((plain.json as { id: string }).id).not.toBe(body.id);
  });

  it('a receiver with a different secret sees a signature that does not verify', async () => {
    const { ctx } = testCtx({ webhooks: [{ name: 'wrong', url: receiver.url('/signed'), secret: 'not the one' }] });
    const stop = startWebhooks(transitions$, ctx, FAST);
    transitions$.next(transition());
    await stop();
    expect(receiver.received.map((r) => r.signatureValid)).toEqual([false]);
  });

  it('applies each entry\'s events and agents filters, and skips disabled entries', async () => {
    const { ctx } = testCtx({
      webhooks: [
        { name: 'waiting-only', url: receiver.url('/waiting'), events: ['waiting'] },
        { name: 'codex-only', url: receiver.url('/codex'), agents: ['codex'] },
        { name: 'off', url: receiver.url('/off'), enabled: false },
      ],
    });
    const stop = startWebhooks(transitions$, ctx, FAST);
    transitions$.next(transition({ sessionId: 'a', agent: 'claude', to: 'waiting' }));
    transitions$.next(transition({ sessionId: 'b', agent: 'codex', from: 'waiting', to: 'thinking' }));
    transitions$.next(transition({ sessionId: 'c', agent: 'codex', to: 'waiting' }));
    transitions$.next(transition({ sessionId: 'd', agent: 'pi', to: 'idle' }));
    await stop();
    const seen = (path: string) => receiver.received.filter((r) => r.path === path).map((r) => (r.json as { session_id: string }).session_id).sort();
    expect(seen('/waiting')).toEqual(['a', 'c']);
    expect(seen('/codex')).toEqual(['b', 'c']);
    expect(seen('/off')).toEqual([]);
  });

  it('retries after 5xx with the same delivery id and body, and logs the late success', async () => {
    receiver.on('/flaky', { status: 503, body: 'busy' }, { status: 502 }, { status: 200 });
    const { ctx, lines } = testCtx({ webhooks: [{ name: 'flaky', url: receiver.url('/flaky'), secret: 's' }] });
    const stop = startWebhooks(transitions$, ctx, FAST);
    transitions$.next(transition());
    await receiver.waitFor(3);
    await stop();
    expect(receiver.received).toHaveLength(3);
    const ids = new Set(receiver.received.map((r) => r.headers['x-agentwatch-delivery']));
    expect(ids.size).toBe(1);
    expect(new Set(receiver.received.map((r) => r.raw.toString('utf8'))).size).toBe(1);
    expect(lines).toEqual([
      'warn webhook "flaky": receiver unavailable (HTTP 503 Service Unavailable); holding its deliveries and retrying the oldest in 20 ms',
      expect.stringMatching(/^info webhook "flaky": delivery \S+ succeeded on attempt 3$/),
      expect.stringMatching(/^info webhook "flaky": receiver is back after \d+ ms; sending 0 queued deliveries in order$/),
    ]);
  });

  it('keeps retrying a receiver that keeps failing (one line), and keeps the delivery queued at shutdown', async () => {
    receiver.on('/down', { status: 500, body: 'database on fire' });
    const { ctx, lines } = testCtx({ webhooks: [{ name: 'down', url: receiver.url('/down') }] });
    const stop = startWebhooks(transitions$, ctx, FAST);
    transitions$.next(transition());
    await receiver.waitFor(6);
    await stop();
    expect(new Set(receiver.received.map((r) => r.headers['x-agentwatch-delivery'])).size).toBe(1);
    expect(lines).toEqual([
      'warn webhook "down": receiver unavailable (HTTP 500 Internal Server Error); holding its deliveries and retrying the oldest in 20 ms',
      expect.stringMatching(/^warn webhooks: 1 delivery still queued at shutdown \(down: 1\); kept in .*webhooks\.db for the next start$/),
    ]);
  });

  // The "4 attempts" are those made while the receiver is up (docs/webhooks.md):
  // an attempt during an outage is made and stored, but does not count towards them.
  it('gives up a delivery the receiver keeps failing after 4 counted attempts, and says 4 when one more was made during an outage', async () => {
    // One request at a time, so the receiver's answers go in this order: b is the delivery it
    // chokes on (500), g1..g3 are others it takes (200); the 503 is the receiver down for a moment.
    receiver.on('/picky', { status: 500 }, { status: 503 }, { status: 200 }, { status: 500 }, { status: 200 }, { status: 500 }, { status: 200 }, { status: 500 });
    const scheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
    const advance = (ms: number): void => {
      const target = scheduler.frame + ms;
      scheduler.maxFrames = target;
      scheduler.flush();
      scheduler.frame = target;
    };
    // Resolves once the sink has handled `count` answers (the breaker settles inside `next`).
    let answered = 0;
    const waiters: { count: number; resolve: () => void }[] = [];
    const handled = (): void => {
      answered += 1;
      for (const waiter of waiters.filter((w) => answered >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    };
    const answers = (count: number): Promise<void> =>
      answered >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }));
    const post: Post = (request) =>
      new Observable((subscriber) => {
        const inner = gotPost(request).subscribe({
          next: (response) => {
            subscriber.next(response);
            handled();
          },
          error: (error: unknown) => {
            subscriber.error(error);
            handled();
          },
          complete: () => subscriber.complete(),
        });
        return () => inner.unsubscribe();
      });
    const store = openDeliveryStore(':memory:');
    const { ctx, lines } = testCtx({ webhooks: [{ name: 'picky', url: receiver.url('/picky') }] }, scheduler);
    const stop = startWebhooks(transitions$, ctx, { post, store, concurrency: 1, makeId: counterIds(), version: '9.8.7' });

    transitions$.next(transition({ sessionId: 'b' })); // d1: 500 while the receiver is up (1)
    await answers(1);
    advance(1_000); // the retry: d1 alone waits, the receiver is down (503): not counted
    await answers(2);
    transitions$.next(transition({ sessionId: 'g1' })); // d2
    advance(5_000); // d2 goes through, then d1: 500 (2)
    await answers(4);
    transitions$.next(transition({ sessionId: 'g2' })); // d3
    advance(1_000); // d3, then d1: 500 (3)
    await answers(6);
    transitions$.next(transition({ sessionId: 'g3' })); // d4
    advance(1_000); // d4, then d1: 500 (4): given up
    await answers(8);
    await stop();

    expect(receiver.received.map((r) => `${(r.json as { session_id: string }).session_id}`)).toEqual(['b', 'b', 'g1', 'b', 'g2', 'b', 'g3', 'b']);
    expect(store.find('d1')).toMatchObject({ state: 'failed', attempts: 5, status: 500 });
    expect(lines.filter((line) => line.includes('given up'))).toEqual([
      'warn webhook "picky": delivery d1 given up after 4 attempts (HTTP 500 Internal Server Error) while the receiver accepted other deliveries (5 in all; those made while it was down do not count)',
    ]);
    store.close();
  });

  it('does not retry a 4xx and logs the status with a body snippet', async () => {
    receiver.on('/gone', { status: 410, body: `hook removed\n${'x'.repeat(500)}` });
    const { ctx, lines } = testCtx({ webhooks: [{ name: 'gone', url: receiver.url('/gone') }] });
    const stop = startWebhooks(transitions$, ctx, FAST);
    transitions$.next(transition());
    await stop();
    expect(receiver.received).toHaveLength(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^warn webhook "gone": delivery \S+ refused, not retried: HTTP 410 Gone: hook removed x{187}…$/);
  });

  it('retries a refused connection (nothing listening) and reports it once', async () => {
    const dead = receiver.url('/x');
    await receiver.close();
    const { ctx, lines } = testCtx({ webhooks: [{ name: 'nobody', url: dead }] });
    const stop = startWebhooks(transitions$, ctx, FAST);
    transitions$.next(transition());
    await stop();
    expect(lines).toEqual([
      expect.stringMatching(/^warn webhook "nobody": receiver unavailable \(connect ECONNREFUSED .*\); holding its deliveries/),
      expect.stringMatching(/^warn webhooks: 1 delivery still queued at shutdown \(nobody: 1\)/),
    ]);
    receiver = await startReceiver();
  });

  it('a hanging receiver does not hold back another one', async () => {
    receiver.on('/hang', 'hang');
    const { ctx, lines } = testCtx({
      webhooks: [
        { name: 'hang', url: receiver.url('/hang') },
        { name: 'live', url: receiver.url('/live') },
      ],
    });
    const stop = startWebhooks(transitions$, ctx, { ...FAST, timeoutMs: 60_000 });
    transitions$.next(transition({ sessionId: 'a' }));
    transitions$.next(transition({ sessionId: 'b' }));
    await receiver.waitFor(4);
    // The live receiver has both while the hanging one still holds its requests.
    expect(receiver.received.filter((r) => r.path === '/live')).toHaveLength(2);
    expect(receiver.received.filter((r) => r.path === '/hang')).toHaveLength(2);
    receiver.on('/hang', { status: 200 });
    receiver.release();
    await stop();
    expect(receiver.received.filter((r) => r.path === '/hang')).toHaveLength(2);
    expect(lines).toEqual([]);
  });

  it('shutdown waits for the flush deadline (virtual time), then cancels the request in flight', async () => {
    receiver.on('/hang', 'hang');
    const scheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
    scheduler.maxFrames = Number.POSITIVE_INFINITY;
    const { ctx, lines } = testCtx({ webhooks: [{ name: 'hang', url: receiver.url('/hang') }] }, scheduler);
    const stop = startWebhooks(transitions$, ctx, { ...FAST, timeoutMs: 60_000, flushMs: 3_000 });
    transitions$.next(transition());
    await receiver.waitFor(1);
    const stopped = stop();
    scheduler.flush();
    await stopped;
    expect(scheduler.now()).toBe(3_000);
    expect(lines).toEqual([expect.stringMatching(/^warn webhooks: 1 delivery still queued at shutdown \(hang: 1\); kept in .*webhooks\.db for the next start$/)]);
    await receiver.waitForAbandoned();
  });

  it('bounds the queue per entry: the oldest are dropped first, counted, and logged once per burst', async () => {
    receiver.on('/gate', 'hang');
    const { ctx, lines } = testCtx({ webhooks: [{ name: 'gate', url: receiver.url('/gate') }] });
    const stop = startWebhooks(transitions$, ctx, { ...FAST, timeoutMs: 60_000, concurrency: 1, maxQueued: 3 });
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) transitions$.next(transition({ sessionId: id }));
    await receiver.waitFor(1);
    // a is in flight; b and c were the oldest waiting when d, e and f arrived.
    expect(lines).toEqual(['warn webhook "gate": dropped 1 delivery, the oldest first (the queue is at its size limit)']);
    receiver.on('/gate', { status: 200 });
    receiver.release();
    await receiver.waitFor(4);
    await stop();
    expect(receiver.received.map((r) => (r.json as { session_id: string }).session_id)).toEqual(['a', 'd', 'e', 'f']);
    expect(lines.slice(1)).toEqual(['warn webhook "gate": 2 more deliveries were dropped (the queue is at its size limit)']);
  });

  it('flushes queued deliveries on shutdown', async () => {
    const { ctx } = testCtx({ webhooks: [{ name: 'h', url: receiver.url('/h') }] });
    const stop = startWebhooks(transitions$, ctx, FAST);
    for (const id of ['a', 'b', 'c']) transitions$.next(transition({ sessionId: id }));
    await stop();
    expect(receiver.received.map((r) => (r.json as { session_id: string }).session_id)).toEqual(['a', 'b', 'c']);
  });

  it('reports invalid entries once at startup, by name, and still runs the valid ones', async () => {
    const { ctx, lines, invalid } = testCtx({
      webhooks: [
        { name: 'broken', url: 'ftp://example.test/x', events: ['sleeping'] },
        { url: receiver.url('/anon') },
        { name: 'ok', url: receiver.url('/ok') },
      ],
    });
    const stop = startWebhooks(transitions$, ctx, { ...FAST, invalid });
    expect(lines).toEqual([
      expect.stringMatching(/^warn webhook "broken" \(entry 1\) is ignored: url: url must be an http:\/\/ or https:\/\/ URL; events\.0: events must list activity states/),
      expect.stringMatching(/^warn webhook "#2" \(entry 2\) is ignored: name: /),
    ]);
    transitions$.next(transition());
    await stop();
    expect(receiver.received.map((r) => r.path)).toEqual(['/ok']);
    expect(lines).toHaveLength(2);
  });
});
