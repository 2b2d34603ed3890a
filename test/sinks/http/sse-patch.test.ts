import { BehaviorSubject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { patchConnectionFrames, patchFrame, readyFrame, sharedPatches } from '../../../src/sinks/http/sse-frames.js';
import { createSessionStore, summaryOf, type ApiStats } from '../../../src/sinks/http/store.js';
import { NOT_A_WORKTREE } from '../../../src/streams/worktree.js';
import type { SessionDetail } from '../../../src/core/session.js';
import { detail, sceneFeed, type Scene } from './helpers.js';

/** `GET /api/events?format=patch` (docs/api.md): one snapshot, then only what changed. */
const rx = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const timing = { throttleMs: 250, heartbeatMs: 60_000, patchThrottleMs: 50 };

const views = (visible: SessionDetail[], ready = true, diagnostics = 0): Scene => ({
  visible,
  windowMinutes: 30,
  ready,
  diagnostics,
});
const s1 = detail({ session_id: 's1', activity: 'idle' });
const s1Writing = detail({ session_id: 's1', activity: 'writing', is_active: true });
const s2 = detail({ session_id: 's2', activity: 'waiting', agent: 'codex' });
const served = (d: SessionDetail) => ({ summary: summaryOf(d), json: JSON.stringify(summaryOf(d)) });
const stats = (total: number, active: number, ready = true, diagnostics = 0): ApiStats => ({ total_sessions: total, active_sessions: active, window_minutes: 30, ready, diagnostics });

const data = (frame: string): unknown => JSON.parse(frame.split('\ndata: ')[1] ?? 'null');

describe('patch frames', () => {
  it('a patch carries the changed sessions (their cached JSON), the ids that left and the stats', () => {
    const frame = patchFrame({ changed: [served(s1Writing)], removed: ['s2'] }, stats(1, 1));
    expect(frame.startsWith('event: patch\n')).toBe(true);
    expect(data(frame)).toEqual({ changed: [summaryOf(s1Writing)], removed: ['s2'], stats: stats(1, 1) });
  });

  it('a connection gets its snapshot, then patches with only what changed, a ready frame when discovery completes, and no empty frames', () => {
    rx().run(({ hot, expectObservable }) => {
      // t=0 discovering (s1 known); 1 s ready with s2 found; 2 s the same again; 3 s s1 writing; 4 s s2 gone; 4.02 s a diagnostic.
      const views$ = new BehaviorSubject(views([s1], false));
      hot('1s b 999ms c 999ms d 999ms e 19ms f', {
        b: views([s2, s1]),
        c: views([s2, s1]),
        d: views([s1Writing, s2]),
        e: views([s1Writing]),
        f: views([s1Writing], true, 1),
      }).subscribe(views$);
      const store = createSessionStore({ feed: sceneFeed(views$), worktree: () => NOT_A_WORKTREE, names: {}, saveName: async () => ({}) });
      const patches = sharedPatches(store, timing);
      expectObservable(patchConnectionFrames(() => store.current(), patches, timing), '^ 5s !').toBe('a 999ms (pr) 1996ms q 999ms s 49ms t', {
        a: expect.stringMatching(/^event: snapshot\ndata: \{"sessions":\[\{"session_id":"s1".*"stats":\{"total_sessions":1,"active_sessions":0,"window_minutes":30,"ready":false,"diagnostics":0\}\}\n\n$/),
        p: patchFrame({ changed: [served(s2)], removed: [] }, stats(2, 0)),
        r: readyFrame(stats(2, 0)),
        q: patchFrame({ changed: [served(s1Writing)], removed: [] }, stats(2, 1)),
        s: patchFrame({ changed: [], removed: ['s2'] }, stats(1, 1)),
        // Inside the 50 ms throttle window: the diagnostic waits for its trailing edge.
        t: patchFrame({ changed: [], removed: [] }, stats(1, 1, true, 1)),
      });
    });
  });

  it('a client connecting between two patches gets a snapshot with what it missed, then the same shared patches', () => {
    rx().run(({ hot, expectObservable }) => {
      const views$ = new BehaviorSubject(views([s1, s2]));
      hot('1s b 999ms c', { b: views([s1Writing, s2]), c: views([s1Writing]) }).subscribe(views$);
      const store = createSessionStore({ feed: sceneFeed(views$), worktree: () => NOT_A_WORKTREE, names: {}, saveName: async () => ({}) });
      const patches = sharedPatches(store, timing);
      expectObservable(patchConnectionFrames(() => store.current(), patches, timing), '^ 3s !').toBe('a 999ms b 999ms c', {
        a: expect.stringContaining('"session_id":"s2"'),
        b: patchFrame({ changed: [served(s1Writing)], removed: [] }, stats(2, 1)),
        c: patchFrame({ changed: [], removed: ['s2'] }, stats(1, 1)),
      });
      // Connected at 1.5 s: its snapshot already shows s1 writing; the next patch only says s2 left.
      expectObservable(patchConnectionFrames(() => store.current(), patches, timing), '1500ms ^ 1500ms !').toBe('1500ms a 499ms c', {
        a: expect.stringContaining('"activity":"writing"'),
        c: patchFrame({ changed: [], removed: ['s2'] }, stats(1, 1)),
      });
    });
  });
});
