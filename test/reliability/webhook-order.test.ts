import { BehaviorSubject, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Activity } from '../../src/core/activity.js';
import type { SessionsState } from '../../src/core/contracts.js';
import type { SessionState, Transition } from '../../src/core/session.js';
import { openDeliveryStore, webhookQueuePath } from '../../src/sinks/webhook/delivery-store.js';
import { emptySession } from '../../src/streams/empty-session.js';
import { transition } from '../sinks/webhook/transitions.js';
import { startFlakyReceiver, type FlakyReceiver } from './helpers/flaky-receiver.js';
import { EPOCH, virtualSink } from './helpers/virtual-sink.js';

/**
 * Every change delivered, in order per session, with `from` equal to the `to` a receiver got
 * before: rapid changes, a restart (changes made while no agentwatch ran are replayed), and
 * deliveries a killed run left behind.
 */

interface Got {
  readonly session_id: string;
  readonly from: Activity;
  readonly to: Activity;
  readonly replayed?: boolean;
}

const received = (receiver: FlakyReceiver, path: string): Got[] =>
  receiver.hits.filter((hit) => hit.path === path && hit.answered === 200).map((hit) => JSON.parse(hit.body) as Got);

/** Per session, the chain of what a receiver got: each `from` is the `to` before it. */
const chains = (got: readonly Got[]): Map<string, Got[]> => {
  const by = new Map<string, Got[]>();
  for (const g of got) by.set(g.session_id, [...(by.get(g.session_id) ?? []), g]);
  return by;
};

const CYCLE: readonly Activity[] = ['thinking', 'reading', 'writing', 'running', 'browsing', 'waiting'];

describe('rapid changes', () => {
  it('19 changes of one session in 3 s: 19 delivered, in order, each from the last to', async () => {
    const receiver = await startFlakyReceiver();
    try {
      const sink = virtualSink([{ name: 'r', url: receiver.url('/r') }], () => false);
      const transitions$ = new Subject<Transition>();
      const stop = sink.start(transitions$);
      for (let i = 0; i < 19; i++) {
        transitions$.next(transition({ sessionId: 's1', from: CYCLE[i % CYCLE.length], to: CYCLE[(i + 1) % CYCLE.length] }));
        await sink.advance(150);
      }
      await sink.advance(1_000);
      await sink.stop(stop);
      const got = received(receiver, '/r');
      expect(got.map((g) => g.to)).toEqual(Array.from({ length: 19 }, (_, i) => CYCLE[(i + 1) % CYCLE.length]));
      expect(got.slice(1).every((g, i) => g.from === got[i]!.to)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('a session alternating between two states, all queued at once: the receiver ends on the state the session is in', async () => {
    const receiver = await startFlakyReceiver();
    try {
      const sink = virtualSink([{ name: 'r', url: receiver.url('/r') }], () => false);
      const transitions$ = new Subject<Transition>();
      const stop = sink.start(transitions$);
      for (let i = 0; i < 9; i++) transitions$.next(transition({ sessionId: 's1', from: i % 2 === 0 ? 'reading' : 'running', to: i % 2 === 0 ? 'running' : 'reading' }));
      await sink.advance(1_000);
      await sink.stop(stop);
      const got = received(receiver, '/r');
      expect(got).toHaveLength(9);
      expect(got.at(-1)?.to).toBe('running');
      expect(got.slice(1).every((g, i) => g.from === got[i]!.to)).toBe(true);
    } finally {
      await receiver.close();
    }
  });
});

const sessionIn = (id: string, activity: 'idle' | 'thinking', now: number): SessionState => ({
  ...emptySession('claude', id),
  cwd: '/home/dev/projects/shop',
  ...(activity === 'thinking' ? { lastTurn: 'user' as const, lastTurnAt: now } : {}),
});

describe('a restart', () => {
  it('changes made while no agentwatch ran are delivered, marked replayed, each from the last delivered to', async () => {
    const receiver = await startFlakyReceiver();
    try {
      const sink = virtualSink([{ name: 'r', url: receiver.url('/r') }], () => false);
      // First run: 30 sessions end on `waiting`.
      const first$ = new Subject<Transition>();
      const first = sink.start(first$);
      for (let i = 1; i <= 30; i++) first$.next(transition({ sessionId: `s${i}`, from: 'thinking', to: 'waiting' }));
      await sink.advance(1_000);
      await sink.stop(first);
      // While it was down, 20 went idle, 5 started thinking, 5 stayed waiting (no change: no delivery).
      const now = EPOCH + sink.scheduler.now();
      const sessions = new Map(
        Array.from({ length: 30 }, (_, k) => {
          const id = `s${k + 1}`;
          return [`claude:${id}`, k < 20 ? sessionIn(id, 'idle', now) : k < 25 ? sessionIn(id, 'thinking', now) : { ...sessionIn(id, 'idle', now), lastTurn: 'assistant' as const, lastTurnAt: now - 10_000 }] as const;
        }),
      );
      const state$ = new BehaviorSubject<SessionsState>({ sessions: new Map(), diagnostics: {}, ready: false });
      const second$ = new Subject<Transition>();
      const second = sink.start(second$, { state$ });
      state$.next({ sessions, diagnostics: {}, ready: true });
      await sink.advance(1_000);
      // A live change after the restart starts from the replayed state.
      second$.next(transition({ sessionId: 's21', from: 'idle', to: 'writing' }));
      await sink.advance(1_000);
      await sink.stop(second);
      const got = received(receiver, '/r');
      const replayed = got.filter((g) => g.replayed === true);
      expect(replayed).toHaveLength(25);
      expect(replayed.every((g) => g.from === 'waiting')).toBe(true);
      expect(replayed.filter((g) => g.to === 'idle')).toHaveLength(20);
      expect(got.at(-1)).toMatchObject({ session_id: 's21', from: 'thinking', to: 'writing' });
      expect(got.at(-1)).not.toHaveProperty('replayed');
      for (const chain of chains(got).values()) expect(chain.slice(1).every((g, i) => g.from === chain[i]!.to)).toBe(true);
      expect(sink.lines).toContain('info webhooks: announcing 25 changes made while agentwatch was not running');
    } finally {
      await receiver.close();
    }
  });
});

describe('deliveries a killed run left in flight', () => {
  it('are sent at once by the next run, before its newer ones of the same session, never after them', async () => {
    const receiver = await startFlakyReceiver();
    try {
      const sink = virtualSink([{ name: 'r', url: receiver.url('/r') }], () => false);
      // A run killed with 30 deliveries still queued: its row in `runs` says it is alive, but its process is gone.
      const file = webhookQueuePath(sink.env);
      const killed = openDeliveryStore(file, { owner: 'killed-run' });
      killed.claim(EPOCH);
      for (let i = 1; i <= 30; i++) {
        const body = JSON.stringify({ id: `old-${i}`, event: 'state_transition', session_id: `s${i}`, agent: 'claude', from: 'thinking', to: 'browsing' });
        killed.enqueue({ id: `old-${i}`, webhook: 'r', body, createdAt: EPOCH, session: `claude:s${i}` });
        killed.recordState(`claude:s${i}`, 'browsing', EPOCH);
      }
      killed.close();
      const db = (await import('better-sqlite3')).default;
      const raw = new db(file);
      // A pid no process has (beyond the kernel's pid_max).
      raw.prepare(`UPDATE runs SET pid = 99999999 WHERE id = 'killed-run'`).run();
      raw.close();
      const next$ = new Subject<Transition>();
      const stop = sink.start(next$);
      for (let i = 1; i <= 30; i++) next$.next(transition({ sessionId: `s${i}`, from: 'browsing', to: 'idle' }));
      await sink.advance(1_000);
      await sink.stop(stop);
      const got = received(receiver, '/r');
      for (const [session, chain] of chains(got)) {
        expect(chain.map((g) => g.to), session).toEqual(['browsing', 'idle']);
      }
      expect(chains(got).size).toBe(30);
    } finally {
      await receiver.close();
    }
  });

  it('one already overtaken by a newer delivered one of its session is dropped as superseded', () => {
    const store = openDeliveryStore(':memory:', { owner: 'next-run' });
    // A row a dead run left queued (unowned by now), older than `new`, which a live run delivered.
    store.absorb([{ id: 'old', webhook: 'r', body: '{}', state: 'queued', attempts: 0, status: null, error: null, latencyMs: null, createdAt: 0, lastAttemptAt: null, owner: '', session: 'claude:s1' }]);
    store.enqueue({ id: 'new', webhook: 'r', body: '{}', createdAt: 0, session: 'claude:s1' });
    store.markDelivered('new', { at: 1, status: 200, error: null, latencyMs: 1 });
    store.claim(2);
    expect(store.takeSuperseded()).toEqual(new Map([['r', 1]]));
    expect(store.find('old')).toMatchObject({ state: 'dropped', error: 'superseded: a newer state of the session was delivered' });
    store.close();
  });
});
