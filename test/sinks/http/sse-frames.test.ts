import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { connectionFrames, HEARTBEAT_FRAME, sharedUpdateFrames, updateFrame } from '../../../src/sinks/http/sse-frames.js';
import { toSnapshot, type SessionsSnapshot } from '../../../src/sinks/http/store.js';
import { detail, viewsOf } from './helpers.js';

const rx = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

const snap = (activity: 'idle' | 'writing' | 'waiting'): SessionsSnapshot =>
  toSnapshot(viewsOf([detail({ session_id: 's1', activity, is_active: activity === 'writing' })]), {});
const A = snap('idle');
const A2 = snap('idle'); // equal content, new object (a pipeline tick)
const B = snap('writing');
const C = snap('waiting');
const timing = { throttleMs: 250, heartbeatMs: 15_000 };

describe('updateFrame', () => {
  it('is an SSE `update` event carrying { sessions (summaries), stats }', () => {
    const frame = updateFrame(B);
    expect(frame.startsWith('event: update\ndata: ')).toBe(true);
    expect(frame.endsWith('\n\n')).toBe(true);
    const data = JSON.parse(frame.slice('event: update\ndata: '.length));
    expect(data.stats).toEqual({ total_sessions: 1, active_sessions: 1, window_minutes: 30, ready: true, diagnostics: 0 });
    expect(data.sessions[0]).toMatchObject({ session_id: 's1', activity: 'writing' });
    expect(data.sessions[0]).not.toHaveProperty('recent_messages');
  });
});

describe('sharedUpdateFrames', () => {
  it('throttles bursts (leading and trailing) and drops re-emissions with the same content', () => {
    rx().run(({ hot, expectObservable }) => {
      const snapshots = hot('a 99ms b 49ms c 1099ms d 999ms e', { a: A, b: B, c: C, d: A2, e: A2 });
      expectObservable(sharedUpdateFrames(snapshots, timing)).toBe('a 249ms c 999ms a', { a: updateFrame(A), c: updateFrame(C) });
    });
  });
});

describe('connectionFrames', () => {
  it('sends the snapshot at connect, later changes, and a heartbeat every 15 s', () => {
    rx().run(({ cold, expectObservable }) => {
      const updates = cold('5s b 20s c', { b: updateFrame(B), c: updateFrame(C) });
      expectObservable(connectionFrames(() => A, updates, timing), '^ 31s !').toBe('a 4999ms b 9999ms h 10000ms c 4998ms h', {
        a: updateFrame(A),
        b: updateFrame(B),
        c: updateFrame(C),
        h: HEARTBEAT_FRAME,
      });
    });
  });

  it('does not repeat the connect snapshot when the shared stream replays the same content', () => {
    rx().run(({ cold, expectObservable }) => {
      const updates = cold('a 1s b', { a: updateFrame(A2), b: updateFrame(B) });
      expectObservable(connectionFrames(() => A, updates, timing), '^ 2s !').toBe('a 1s b', { a: updateFrame(A), b: updateFrame(B) });
    });
  });
});
