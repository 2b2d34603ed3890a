import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toEffective } from '../../src/config/effective.js';
import { backFill } from '../../src/config/back-fill.js';
import type { Transition } from '../../src/core/session.js';
import { createBreaker, type BreakerEvent } from '../../src/sinks/webhook/breaker.js';
import { openDeliveryStore, webhookQueuePath, type DeliveryStore } from '../../src/sinks/webhook/delivery-store.js';
import { openQueue } from '../../src/sinks/webhook/index.js';
import type { Post, PostResponse } from '../../src/sinks/webhook/post.js';
import { BACKOFF_MS } from '../../src/sinks/webhook/retry.js';
import { createSinkLog } from '../../src/sinks/webhook/sink-log.js';
import { standardSignature } from '../../src/sinks/webhook/standard-webhooks.js';
import { runCli } from '../helpers/cli.js';
import { makeTempHome } from '../helpers/temp-home.js';
import { transition } from '../sinks/webhook/transitions.js';
import { startFlakyReceiver, verifyStandard, type FlakyReceiver } from './helpers/flaky-receiver.js';
import { EPOCH, virtualSink } from './helpers/virtual-sink.js';

/**
 * Webhooks that lose nothing: a durable queue, a circuit breaker per receiver,
 * receivers down, hanging and answering 500 for ten virtual minutes, a restart in the middle.
 */

const answer = (status: number): PostResponse => ({ status, statusText: status === 200 ? 'OK' : 'Internal Server Error', body: '' });

describe('circuit breaker (marbles, virtual time)', () => {
  let store: DeliveryStore;
  let rx: TestScheduler;
  beforeEach(() => {
    store = openDeliveryStore(':memory:');
    rx = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });
  afterEach(() => store.close());

  const queue = (count: number): void => {
    for (let i = 1; i <= count; i++) store.enqueue({ id: `d${i}`, webhook: 'h', body: `{"n":${i}}`, createdAt: 0 });
  };
  const breakerWith = (post: Post, events: BreakerEvent[] = [], concurrency = 4) =>
    createBreaker({
      webhook: 'h',
      store,
      post,
      request: (delivery) => ({ id: delivery.id, url: 'http://127.0.0.1:9/h', body: delivery.body, headers: {} }),
      scheduler: rx,
      now: () => rx.now(),
      timeoutMs: 10_000,
      concurrency,
      backoff: BACKOFF_MS,
      maxAttempts: 4,
      onEvent: (event) => events.push(event),
    });

  it('down for 10 minutes: one delivery is retried at 1 s, 5 s, then every 30 s; the rest are held, then drain in order', () => {
    const sent: [number, string][] = [];
    const events: BreakerEvent[] = [];
    rx.run(({ cold }) => {
      const down = cold('(r|)', { r: answer(500) });
      const up = cold('(r|)', { r: answer(200) });
      queue(10);
      const breaker = breakerWith((request) => {
        sent.push([rx.now(), request.id]);
        return rx.now() < 600_000 ? down : up;
      }, events);
      breaker.kick();
    });
    const expectedProbes = [1_000, 6_000];
    for (let at = 36_000; ; at += 30_000) {
      expectedProbes.push(at);
      if (at >= 600_000) break;
    }
    // Four went out together before the first answer; d1's failure opened the breaker, so the
    // probes use d2 (the oldest delivery not itself under suspicion); nothing else goes out.
    expect(sent.filter(([at]) => at === 0)).toEqual([[0, 'd1'], [0, 'd2'], [0, 'd3'], [0, 'd4']]);
    const probes = sent.filter(([at]) => at > 0 && at < expectedProbes.at(-1)!);
    expect(probes.map(([at]) => at)).toEqual(expectedProbes.slice(0, -1));
    expect(new Set(probes.map(([, id]) => id))).toEqual(new Set(['d2']));
    // Back at 606 s: the probe goes through, then every other delivery, in order, at once.
    expect(sent.filter(([at]) => at === 606_000).map(([, id]) => id)).toEqual(['d2', 'd1', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8', 'd9', 'd10']);
    expect(store.queuedCounts().get('h') ?? 0).toBe(0);
    expect(store.recent({ limit: 20 }).map((r) => r.state)).toEqual(Array(10).fill('delivered'));
    expect(store.find('d2')).toMatchObject({ attempts: expectedProbes.length + 1, status: 200 });
    expect(events.filter((e) => e.kind === 'opened' || e.kind === 'closed').map((e) => e.kind)).toEqual(['opened', 'closed']);
  });

  it('unreachable (connection refused) for 2 minutes: the oldest delivery is the probe, and the queue drains in order', () => {
    const sent: [number, string][] = [];
    rx.run(({ cold }) => {
      const refused = cold<PostResponse>('#', undefined, Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }));
      const up = cold('(r|)', { r: answer(200) });
      queue(6);
      breakerWith((request) => {
        sent.push([rx.now(), request.id]);
        return rx.now() < 120_000 ? refused : up;
      }, [], 1).kick();
    });
    const probes = sent.filter(([at]) => at > 0 && at < 120_000);
    expect(new Set(probes.map(([, id]) => id))).toEqual(new Set(['d1']));
    const delivered = sent.filter(([at]) => at >= 120_000).map(([, id]) => id);
    expect(delivered).toEqual(['d1', 'd2', 'd3', 'd4', 'd5', 'd6']);
    expect(store.recent({ limit: 10 }).map((r) => r.state)).toEqual(Array(6).fill('delivered'));
  });

  it('a receiver that refuses one delivery with 500 but takes the others: that one is given up after 4 attempts, nothing else waits long', () => {
    const sent: [number, string][] = [];
    const events: BreakerEvent[] = [];
    rx.run(({ cold }) => {
      queue(6);
      breakerWith((request) => {
        sent.push([rx.now(), request.id]);
        return cold('(r|)', { r: answer(request.id === 'd1' ? 500 : 200) });
      }, events, 1).kick();
    });
    expect(store.find('d1')).toMatchObject({ state: 'failed', attempts: 4, status: 500 });
    expect(store.recent({ limit: 10 }).filter((r) => r.id !== 'd1').map((r) => r.state)).toEqual(Array(5).fill('delivered'));
    expect(sent.filter(([, id]) => id === 'd1')).toHaveLength(4);
    expect(Math.max(...sent.map(([at]) => at))).toBeLessThanOrEqual(3_000);
    expect(events.filter((e) => e.kind === 'failed')).toEqual([
      { kind: 'failed', webhook: 'h', id: 'd1', reason: 'HTTP 500 Internal Server Error', attempts: 4 },
    ]);
  });

  it('healthy: several in flight (4), taken in queue order', () => {
    const sent: [number, string][] = [];
    rx.run(({ cold }) => {
      const slow = cold('10ms (r|)', { r: answer(200) });
      queue(10);
      breakerWith((request) => {
        sent.push([rx.now(), request.id]);
        return slow;
      }).kick();
    });
    expect(sent).toEqual([
      [0, 'd1'], [0, 'd2'], [0, 'd3'], [0, 'd4'],
      [10, 'd5'], [10, 'd6'], [10, 'd7'], [10, 'd8'],
      [20, 'd9'], [20, 'd10'],
    ]);
  });

  it('hanging: each attempt times out at 10 s; one delivery is retried (11 s, 26 s, 66 s ...); nothing is lost', () => {
    const sent: [number, string][] = [];
    rx.run(({ cold }) => {
      const hang = cold<PostResponse>('-');
      const up = cold('(r|)', { r: answer(200) });
      queue(3);
      breakerWith((request) => {
        sent.push([rx.now(), request.id]);
        return rx.now() < 100_000 ? hang : up;
      }, [], 1).kick();
    });
    // A timeout says the receiver is down, not that d1 is bad: d1 stays the probe, and the
    // queue drains in order once the receiver answers.
    expect(sent).toEqual([
      [0, 'd1'],
      [11_000, 'd1'],
      [26_000, 'd1'],
      [66_000, 'd1'],
      [106_000, 'd1'],
      [106_000, 'd2'],
      [106_000, 'd3'],
    ]);
  });

  it('a 4xx is refused, never retried, and does not stop the queue', () => {
    const sent: string[] = [];
    const events: BreakerEvent[] = [];
    rx.run(({ cold }) => {
      queue(3);
      breakerWith((request) => {
        sent.push(request.id);
        return cold('(r|)', { r: request.id === 'd2' ? { status: 410, statusText: 'Gone', body: 'bye' } : answer(200) });
      }, events).kick();
    });
    expect(sent).toEqual(['d1', 'd2', 'd3']);
    expect(store.find('d2')).toMatchObject({ state: 'refused', attempts: 1, status: 410, error: 'HTTP 410 Gone' });
    expect(events.map((e) => e.kind)).toEqual(['delivered', 'refused', 'delivered']);
  });
});

describe('bounded queue', () => {
  it('keeps at most maxQueued per webhook: the oldest are dropped first and counted', () => {
    const store = openDeliveryStore(':memory:', { maxQueued: 3 });
    const dropped = [1, 2, 3, 4, 5].map((i) => store.enqueue({ id: `d${i}`, webhook: 'h', body: '{}', createdAt: i }));
    store.enqueue({ id: 'x1', webhook: 'other', body: '{}', createdAt: 6 });
    expect(dropped).toEqual([0, 0, 0, 1, 1]);
    expect(store.nextQueued('h', 10, new Set()).map((d) => d.id)).toEqual(['d3', 'd4', 'd5']);
    expect(store.find('d1')).toMatchObject({ state: 'dropped', error: 'queue full (3 waiting)' });
    expect(store.queuedCounts()).toEqual(new Map([['h', 3], ['other', 1]]));
    store.close();
  });

  it('drops deliveries queued longer than 24 h, with the reason', () => {
    const store = openDeliveryStore(':memory:');
    store.enqueue({ id: 'old', webhook: 'h', body: '{}', createdAt: 0 });
    store.enqueue({ id: 'new', webhook: 'h', body: '{}', createdAt: 23 * 3_600_000 });
    expect(store.expire(24 * 3_600_000 + 1)).toEqual(new Map([['h', 1]]));
    expect(store.find('old')).toMatchObject({ state: 'dropped', error: 'queued longer than 24 h' });
    expect(store.nextQueued('h', 10, new Set()).map((d) => d.id)).toEqual(['new']);
    store.close();
  });
});

describe('a damaged queue file', () => {
  it('is moved aside (kept for the user) and a new queue started, said once', async () => {
    const receiver = await startFlakyReceiver();
    try {
      const sink = virtualSink([{ name: 'r', url: receiver.url('/r') }], () => false);
      const file = webhookQueuePath(sink.env);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, 'this is not a database, but it is the user\'s file');
      const transitions$ = new Subject<Transition>();
      const stop = sink.start(transitions$);
      transitions$.next(transition());
      await sink.advance(1_000);
      await sink.stop(stop);
      expect(receiver.accepted('/r')).toHaveLength(1);
      expect(sink.lines).toEqual([expect.stringMatching(/^warn webhook queue .*webhooks\.db was unusable \(.*\); moved it to .*webhooks\.db\.corrupt-.* and started a new one$/)]);
      const aside = (await readdir(path.dirname(file))).find((name) => name.startsWith('webhooks.db.corrupt-'));
      expect(await readFile(path.join(path.dirname(file), aside ?? 'missing'), 'utf8')).toBe('this is not a database, but it is the user\'s file');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    } finally {
      await receiver.close();
    }
  });
});

describe('a queue file of this version whose table is not ours', () => {
  it('is moved aside as a damaged one is, and a new queue started', async () => {
    const temp = await makeTempHome();
    try {
      const file = webhookQueuePath(temp.env);
      await mkdir(path.dirname(file), { recursive: true });
      const foreign = new BetterSqlite3(file);
      foreign.exec('CREATE TABLE deliveries (seq INTEGER PRIMARY KEY, note TEXT); PRAGMA user_version = 2;');
      foreign.close();
      const lines: string[] = [];
      const say = (line: string): number => lines.push(line);
      const store = openQueue({ env: temp.env }, { info: say, warn: say, error: say });
      store.enqueue({ id: 'd1', webhook: 'h', body: '{}', createdAt: 0 });
      expect(store.file).toBe(file);
      expect(store.queued('h')).toBe(1);
      store.close();
      expect(lines).toEqual([expect.stringMatching(/^webhook queue .*webhooks\.db was unusable \(.*\); moved it to .*webhooks\.db\.corrupt-.* and started a new one$/)]);
    } finally {
      await temp.cleanup();
    }
  });
});

describe('the age bound, through the sink', () => {
  it('a receiver down longer than the bound: the expired deliveries are dropped, counted and said once', async () => {
    const receiver = await startFlakyReceiver();
    try {
      receiver.set('/r', 503);
      const sink = virtualSink([{ name: 'r', url: receiver.url('/r') }], () => false);
      const transitions$ = new Subject<Transition>();
      const stop = sink.start(transitions$, { maxAgeMs: 60_000 });
      for (let i = 1; i <= 3; i++) transitions$.next(transition({ sessionId: `s${i}` }));
      for (let s = 0; s < 8; s++) await sink.advance(10_000);
      await sink.stop(stop);
      expect(sink.lines).toEqual([
        expect.stringMatching(/receiver unavailable \(HTTP 503 Service Unavailable\)/),
        'warn webhook "r": dropped 3 deliveries, the oldest first (queued longer than the age limit)',
      ]);
      const log = openDeliveryStore(webhookQueuePath(sink.env), { readonly: true });
      expect(log.recent({ limit: 10 }).map((r) => [r.state, r.error])).toEqual(Array(3).fill(['dropped', 'queued longer than 1 min']));
      log.close();
    } finally {
      await receiver.close();
    }
  });
});

describe('a queue written by the first version (no owners)', () => {
  it('is migrated in place: its waiting deliveries are adopted by the next run, none lost', async () => {
    const temp = await makeTempHome('agentwatch-rel-migrate-');
    try {
      const file = webhookQueuePath(temp.env);
      await mkdir(path.dirname(file), { recursive: true });
      const v1 = new BetterSqlite3(file);
      v1.exec(`CREATE TABLE deliveries (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, webhook TEXT NOT NULL, body TEXT NOT NULL,
        state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, status INTEGER, error TEXT, latency_ms INTEGER, created_at INTEGER NOT NULL, last_attempt_at INTEGER);
        CREATE INDEX deliveries_queue ON deliveries (webhook, state, seq); CREATE INDEX deliveries_age ON deliveries (state, created_at); PRAGMA user_version = 1;`);
      v1.prepare(`INSERT INTO deliveries (id, webhook, body, state, attempts, created_at) VALUES ('old', 'r', '{}', 'queued', 3, ?)`).run(Date.now());
      v1.close();
      // Listing it before any sink has migrated it works (read-only), waiting deliveries counted.
      const listed = await runCli(['webhooks', 'log'], { env: temp.env });
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(/ r {2}queued +- +3 attempts +- +old\n$/);
      expect(listed.stderr).toBe('agentwatch: 1 delivery still queued\n');
      const store = openDeliveryStore(file, { owner: 'next-run' });
      expect(store.claim(Date.now())).toEqual(new Map([['r', 1]]));
      expect(store.nextQueued('r', 10, new Set()).map((d) => [d.id, d.attempts])).toEqual([['old', 3]]);
      store.close();
      // Owned by a run now, it is still counted by the log.
      expect((await runCli(['webhooks', 'log', 'r'], { env: temp.env })).stderr).toBe('agentwatch: 1 delivery still queued\n');
    } finally {
      await temp.cleanup();
    }
  });
});

describe('log lines', () => {
  it('365 refused deliveries in a burst make two lines, not 365', () => {
    const rx = new TestScheduler(() => undefined);
    const lines: string[] = [];
    const log = createSinkLog({ info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) }, rx);
    rx.run(() => {
      for (let i = 0; i < 365; i++) {
        log.event({ kind: 'refused', webhook: 'h', id: `d${i}`, status: 422, reason: 'HTTP 422 Unprocessable Entity', body: 'bad', attempts: 1 });
      }
    });
    expect(lines).toEqual([
      'webhook "h": delivery d0 refused, not retried: HTTP 422 Unprocessable Entity: bad',
      'webhook "h": 364 more deliveries were refused, not retried (last: HTTP 422 Unprocessable Entity: bad)',
    ]);
  });
});

describe('real receivers down, hanging and answering 500 for 10 virtual minutes', () => {
  let receiver: FlakyReceiver;
  beforeEach(async () => {
    receiver = await startFlakyReceiver();
  });
  afterEach(async () => {
    await receiver.close();
  });

  it('364 transitions during the outage: every one reaches every receiver once it is back, in order of first success', async () => {
    const paths = ['/five-hundred', '/hang', '/reset'] as const;
    receiver.set('/five-hundred', 500);
    receiver.set('/hang', 'hang');
    receiver.set('/reset', 'reset');
    // Requests to /hang stay unanswered (until their timeout, on virtual time) while it hangs.
    const sink = virtualSink(
      paths.map((p) => ({ name: p.slice(1), url: receiver.url(p) })),
      (url) => url.endsWith('/hang') && receiver.mode('/hang') === 'hang',
    );
    const transitions$ = new Subject<Transition>();
    const stop = sink.start(transitions$);
    let sent = 0;
    for (let second = 0; second < 600; second++) {
      for (let i = 0; i < 3 && sent < 364; i++) transitions$.next(transition({ sessionId: `s${(sent += 1)}` }));
      await sink.advance(1_000);
    }
    expect(sent).toBe(364);
    // While down: a handful of probes per receiver, not one request per transition.
    for (const p of paths) expect(receiver.hits.filter((h) => h.path === p).length).toBeLessThan(40);
    for (const p of paths) receiver.set(p, 200);
    receiver.release();
    for (let second = 0; second < 120; second++) await sink.advance(1_000);
    await sink.stop(stop);

    for (const p of paths) {
      const accepted = receiver.accepted(p);
      expect(new Set(accepted).size, p).toBe(364);
      const sessions = receiver.hits
        .filter((h) => h.path === p && h.answered === 200)
        .map((h) => (JSON.parse(h.body) as { session_id: string }).session_id);
      expect(new Set(sessions).size, p).toBe(364);
    }
    // One line when each receiver went down and one when it came back; nothing per delivery.
    expect(sink.lines.filter((l) => l.includes('receiver unavailable'))).toHaveLength(3);
    expect(sink.lines.filter((l) => l.includes('receiver is back'))).toHaveLength(3);
    expect(sink.lines.filter((l) => !l.includes('receiver unavailable') && !l.includes('receiver is back') && !l.includes('succeeded on attempt'))).toEqual([]);
  }, 60_000);

  it('a restart in the middle of an outage loses nothing: the queue is kept and sent by the next run', async () => {
    receiver.set('/r', 500);
    const sink = virtualSink([{ name: 'r', url: receiver.url('/r') }], () => false);
    const counted = { delivered: 0, refused: 0, failed: 0, dropped: 0, retries: 0, depth: -1 };
    const metrics = {
      delivery: (_: string, outcome: 'delivered' | 'refused' | 'failed' | 'dropped') => (counted[outcome] += 1),
      retry: () => (counted.retries += 1),
      queueDepth: (_: string, depth: number) => (counted.depth = depth),
    };
    const first$ = new Subject<Transition>();
    const first = sink.start(first$, { metrics });
    for (let i = 1; i <= 50; i++) first$.next(transition({ sessionId: `s${i}` }));
    await sink.advance(10_000);
    await sink.stop(first);
    expect(sink.lines.at(-1)).toBe(`warn webhooks: 50 deliveries still queued at shutdown (r: 50); kept in ${webhookQueuePath(sink.env)} for the next start`);

    expect(counted).toMatchObject({ delivered: 0, depth: 50 });
    expect(counted.retries).toBeGreaterThan(1);

    receiver.set('/r', 200);
    const second$ = new Subject<Transition>();
    const second = sink.start(second$, { metrics });
    second$.next(transition({ sessionId: 's51' }));
    for (let i = 0; i < 5; i++) await sink.advance(1_000);
    await sink.stop(second);
    const sessions = receiver.hits.filter((h) => h.answered === 200).map((h) => (JSON.parse(h.body) as { session_id: string }).session_id);
    expect(new Set(sessions).size).toBe(51);
    expect(sink.lines).toContain('info webhooks: resuming deliveries queued by an earlier run (r: 50)');
    expect(sink.lines.filter((l) => l.includes('still queued'))).toHaveLength(1);
    expect(counted).toMatchObject({ delivered: 51, refused: 0, failed: 0, dropped: 0, depth: 0 });

    // The log lists them, newest first, with status, attempts and latency.
    const env = { ...sink.env, PATH: process.env.PATH ?? '/usr/bin:/bin' } as Record<string, string>;
    const cli = await runCli(['webhooks', 'log', 'r', '--limit', '3', '--json'], { env, cwd: sink.root });
    expect(cli.code).toBe(0);
    const records = JSON.parse(cli.stdout) as { state: string; status: number; attempts: number; latency_ms: number; webhook: string }[];
    expect(records).toHaveLength(3);
    for (const record of records) expect(record).toMatchObject({ webhook: 'r', state: 'delivered', status: 200, latency_ms: expect.any(Number) });
    const oldest = JSON.parse((await runCli(['webhooks', 'log', '--limit', '60', '--json'], { env, cwd: sink.root })).stdout) as { attempts: number }[];
    expect(oldest.at(-1)?.attempts).toBeGreaterThan(1);
    const text = await runCli(['webhooks', 'log'], { env, cwd: sink.root });
    expect(text.stdout.split('\n')[0]).toMatch(/^2026-11-21 12:\d\d:\d\dZ {2}r {2}delivered {2}200 {2}1 attempt {4}\d+ ms +[0-9a-f-]{36}$/);
  }, 60_000);
});

describe('two agentwatch processes sharing the queue', () => {
  it('never send each other\'s deliveries; a stopped or silent one\'s are taken over', async () => {
    const receiver = await startFlakyReceiver();
    try {
      const sink = virtualSink([{ name: 'r', url: receiver.url('/r') }], () => false);
      const file = webhookQueuePath(sink.env);
      const queueOf = (owner: string, ids: string[], heartbeatAt: number) => {
        const other = openDeliveryStore(file, { owner });
        other.claim(heartbeatAt);
        for (const id of ids) other.enqueue({ id, webhook: 'r', body: `{"id":"${id}"}`, createdAt: EPOCH });
        return other;
      };
      // A process that crashed (never released) and one still running, both with work queued.
      queueOf('run-crashed', ['c1', 'c2', 'c3'], EPOCH).close();
      const live = queueOf('run-live', ['l1', 'l2'], EPOCH);

      const stop = sink.start(new Subject<Transition>());
      for (let s = 0; s < 50; s += 10) await sink.advance(10_000);
      live.claim(EPOCH + 50_000);
      expect(receiver.hits).toEqual([]);
      // The crashed run has been silent for over a minute at 70 s: its deliveries are taken over.
      await sink.advance(10_000);
      await sink.advance(10_000);
      expect(receiver.accepted('/r').sort()).toEqual(['c1', 'c2', 'c3']);
      // The live one stops cleanly: what it leaves is taken over at the next heartbeat.
      live.release();
      live.close();
      await sink.advance(10_000);
      await sink.stop(stop);
      expect(receiver.accepted('/r').sort()).toEqual(['c1', 'c2', 'c3', 'l1', 'l2']);
      expect(sink.lines).toEqual([
        'info webhook "r": took over 3 queued deliveries from a stopped agentwatch or a replay',
        'info webhook "r": took over 2 queued deliveries from a stopped agentwatch or a replay',
      ]);
    } finally {
      await receiver.close();
    }
  });
});

describe('agentwatch webhooks replay ID', () => {
  it('sends the recorded delivery again (same id and body), records it; a failure queues it again; bad ids are clear', async () => {
    const receiver = await startFlakyReceiver();
    const temp = await makeTempHome('agentwatch-rel-replay-');
    try {
      await mkdir(path.join(temp.env.XDG_CONFIG_HOME ?? '', 'agentwatch'), { recursive: true });
      await writeFile(
        path.join(temp.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json'),
        JSON.stringify({ api_salt: 'x', webhooks: [{ name: 'r', url: receiver.url('/r'), secret: 'shh' }] }),
      );
      const store = openDeliveryStore(webhookQueuePath(temp.env));
      const body = '{"id":"0b6f7c1e-3f7a-4c55-9d8e-5b7f0c2a9e41","event":"state_transition"}';
      store.enqueue({ id: '0b6f7c1e-3f7a-4c55-9d8e-5b7f0c2a9e41', webhook: 'r', body, createdAt: Date.UTC(2026, 10, 21) });
      store.markRefused('0b6f7c1e-3f7a-4c55-9d8e-5b7f0c2a9e41', { at: Date.UTC(2026, 10, 21), status: 400, error: 'HTTP 400', latencyMs: 3 });
      store.close();

      const ok = await runCli(['webhooks', 'replay', '0b6f7c1e'], { env: temp.env });
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toMatch(/^ok {6}r {2}HTTP 200 OK \(\d+ ms\) {2}delivery 0b6f7c1e-3f7a-4c55-9d8e-5b7f0c2a9e41\n$/);
      expect(receiver.hits).toHaveLength(1);
      expect(receiver.hits[0]?.body).toBe(body);
      expect(receiver.hits[0]?.headers['x-agentwatch-delivery']).toBe('0b6f7c1e-3f7a-4c55-9d8e-5b7f0c2a9e41');

      receiver.set('/r', 503);
      const failed = await runCli(['webhooks', 'replay', '0b6f7c1e-3f7a-4c55-9d8e-5b7f0c2a9e41'], { env: temp.env });
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain('is queued again; agentwatch retries it while it runs');
      const after = openDeliveryStore(webhookQueuePath(temp.env), { readonly: true });
      expect(after.find('0b6f7c1e-3f7a-4c55-9d8e-5b7f0c2a9e41')).toMatchObject({ state: 'queued', attempts: 3, status: 503 });
      after.close();

      const unknown = await runCli(['webhooks', 'replay', 'ffffffff-nope'], { env: temp.env });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/no delivery "ffffffff-nope" in .*webhooks\.db \(agentwatch webhooks log lists them\)/);
      const missing = await runCli(['webhooks', 'replay'], { env: temp.env });
      expect(missing.code).toBe(2);
      const short = await runCli(['webhooks', 'replay', '0b6f7c'], { env: temp.env });
      expect(short.code).toBe(2);
      expect(short.stderr).toContain('Delivery id "0b6f7c" is too short: give the id, or at least its first 8 characters');
    } finally {
      await receiver.close();
      await temp.cleanup();
    }
  });
});

describe('signature: "standard-webhooks"', () => {
  it('signs "id.timestamp.body" with the decoded whsec_ key (the reference libraries\' test vector)', () => {
    expect(standardSignature('msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('a receiver verifying with its own code accepts every attempt; X-Agentwatch-* headers are kept', async () => {
    const receiver = await startFlakyReceiver();
    try {
      const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
      receiver.set('/sw', 503);
      const sink = virtualSink([{ name: 'sw', url: receiver.url('/sw'), secret, signature: 'standard-webhooks' }], () => false);
      const transitions$ = new Subject<Transition>();
      const stop = sink.start(transitions$);
      transitions$.next(transition());
      await sink.advance(500);
      receiver.set('/sw', 200);
      await sink.advance(1_000);
      await sink.stop(stop);
      expect(receiver.hits.map((h) => h.answered)).toEqual([503, 200]);
      for (const hit of receiver.hits) {
        expect(verifyStandard(hit.headers, hit.body, secret)).toBe(true);
        expect(hit.headers['webhook-id']).toBe(hit.headers['x-agentwatch-delivery']);
        expect(hit.headers['x-agentwatch-event']).toBe('state_transition');
        expect(hit.headers['x-agentwatch-signature']).toBeUndefined();
      }
      // The attempt's own time: the retry carries a later timestamp than the first attempt.
      const [first, second] = receiver.hits.map((h) => Number(h.headers['webhook-timestamp']));
      expect(second! - first!).toBe(1);
    } finally {
      await receiver.close();
    }
  });

  it.each([
    [undefined, /needs secret "whsec_/],
    ['plain-secret', /needs secret "whsec_/],
    ['whsec_not*base64', /not base64/],
    [`whsec_${Buffer.alloc(8).toString('base64')}`, /decodes to 8 bytes/],
  ])('secret %j is refused with a clear message, naming the entry', (secret, message) => {
    const { invalidWebhooks } = toEffective(
      backFill({ webhooks: [{ name: 'sw', url: 'http://127.0.0.1:9/', signature: 'standard-webhooks', ...(secret ? { secret } : {}) }] }).filled,
      {},
    );
    expect(invalidWebhooks).toEqual([{ index: 0, name: 'sw', problems: [expect.stringMatching(message)] }]);
  });
});
