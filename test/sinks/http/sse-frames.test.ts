import { BehaviorSubject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { connectionFrames, HEARTBEAT_FRAME, sharedUpdateFrames, updateFrame, type SharedUpdate } from '../../../src/sinks/http/sse-frames.js';
import { createSessionStore, type SessionsSnapshot } from '../../../src/sinks/http/store.js';
import { NOT_A_WORKTREE } from '../../../src/streams/worktree.js';
import { detail, sceneFeed, viewsOf, type Scene } from './helpers.js';

const rx = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

/** One store, fed one views object after another: the snapshot it serves after each. */
const snapshotsOf = (...views: Scene[]): SessionsSnapshot[] => {
  const views$ = new BehaviorSubject(views[0] as Scene);
  const store = createSessionStore({ feed: sceneFeed(views$), worktree: () => NOT_A_WORKTREE, names: {}, saveName: async () => ({}) });
  return views.map((v) => {
    views$.next(v);
    return store.current();
  });
};

const one = (activity: 'idle' | 'writing' | 'waiting'): Scene => viewsOf([detail({ session_id: 's1', activity, is_active: activity === 'writing' })]);
// A2 shows what A shows, after C: the same content again is a new snapshot (the list changed back).
const [A, B, C, A2, A3] = snapshotsOf(one('idle'), one('writing'), one('waiting'), one('idle'), one('idle')) as [
  SessionsSnapshot,
  SessionsSnapshot,
  SessionsSnapshot,
  SessionsSnapshot,
  SessionsSnapshot,
];
const timing = { throttleMs: 250, heartbeatMs: 15_000 };
const shared = (snapshot: SessionsSnapshot): SharedUpdate => ({ snapshot, frame: updateFrame(snapshot) });

describe('store snapshots', () => {
  it('are rebuilt only when something listed changed: equal views give the same snapshot object', () => {
    expect(A3).toBe(A2);
    expect(A2).not.toBe(A);
    expect([A.version, B.version, C.version, A2.version]).toEqual([1, 2, 3, 4]);
    // Each session's JSON text is made once and reused by the joined list.
    expect(A.summariesJson).toBe(`[${A.sessions[0]?.json}]`);
    expect(A.summariesBytes.toString()).toBe(A.summariesJson);
  });
});

describe('updateFrame', () => {
  it('is an SSE `update` event carrying { sessions (summaries), stats }, built once per snapshot', () => {
    const frame = updateFrame(B);
    expect(updateFrame(B)).toBe(frame);
    expect(frame.startsWith('event: update\ndata: ')).toBe(true);
    expect(frame.endsWith('\n\n')).toBe(true);
    const data = JSON.parse(frame.slice('event: update\ndata: '.length));
    expect(data.stats).toEqual({ total_sessions: 1, active_sessions: 1, window_minutes: 30, ready: true, diagnostics: 0 });
    expect(data.sessions[0]).toMatchObject({ session_id: 's1', activity: 'writing' });
    expect(data.sessions[0]).not.toHaveProperty('recent_messages');
  });
});

describe('sharedUpdateFrames', () => {
  it('throttles bursts (leading and trailing) and drops a repeated snapshot', () => {
    rx().run(({ hot, expectObservable }) => {
      const snapshots = hot('a 99ms b 49ms c 1099ms d 999ms e', { a: A, b: B, c: C, d: A2, e: A3 });
      expectObservable(sharedUpdateFrames(snapshots, timing)).toBe('a 249ms c 999ms d', { a: shared(A), c: shared(C), d: shared(A2) });
    });
  });
});

describe('connectionFrames', () => {
  it('sends the snapshot at connect, later changes, and a heartbeat every 15 s', () => {
    rx().run(({ cold, expectObservable }) => {
      const updates = cold('5s b 20s c', { b: shared(B), c: shared(C) });
      expectObservable(connectionFrames(() => A, updates, timing), '^ 31s !').toBe('a 4999ms b 9999ms h 10000ms c 4998ms h', {
        a: updateFrame(A),
        b: updateFrame(B),
        c: updateFrame(C),
        h: HEARTBEAT_FRAME,
      });
    });
  });

  it('does not repeat the connect snapshot when the shared stream sends that same snapshot', () => {
    rx().run(({ cold, expectObservable }) => {
      const updates = cold('a 1s b', { a: shared(A), b: shared(B) });
      expectObservable(connectionFrames(() => A, updates, timing), '^ 2s !').toBe('a 1s b', { a: updateFrame(A), b: updateFrame(B) });
    });
  });
});
