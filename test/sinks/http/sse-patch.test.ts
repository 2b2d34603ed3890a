import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { patchConnectionFrames, patchFrame, readyFrame, sharedPatches, snapshotFrame } from '../../../src/sinks/http/sse-frames.js';
import { toSnapshot, type SessionsSnapshot, type SessionViews } from '../../../src/sinks/http/store.js';
import type { SessionDetail } from '../../../src/core/session.js';
import { detail } from './helpers.js';

/** `GET /api/events?format=patch` (PRODUCT.md section 8): one snapshot, then only what changed. */
const rx = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
const timing = { throttleMs: 250, heartbeatMs: 60_000 };

const views = (visible: SessionDetail[], ready = true): SessionViews => ({
  visible,
  lookup: (id) => visible.find((s) => s.session_id === id),
  windowMinutes: 30,
  ready,
  diagnostics: 0,
});
const s1 = detail({ session_id: 's1', activity: 'idle' });
const s1Writing = detail({ session_id: 's1', activity: 'writing', is_active: true });
const s2 = detail({ session_id: 's2', activity: 'waiting', agent: 'codex' });
const A: SessionsSnapshot = toSnapshot(views([s1, s2]), {});
const B: SessionsSnapshot = toSnapshot(views([s1Writing, s2]), {});
const C: SessionsSnapshot = toSnapshot(views([s1Writing]), {});
const early: SessionsSnapshot = toSnapshot(views([s1], false), {});

const data = (frame: string | undefined): unknown => JSON.parse((frame ?? '').split('\ndata: ')[1] ?? 'null');

describe('patch frames', () => {
  it('a snapshot carries every session and the stats', () => {
    expect(snapshotFrame(A).startsWith('event: snapshot\n')).toBe(true);
    expect(data(snapshotFrame(A))).toMatchObject({ sessions: [{ session_id: 's1' }, { session_id: 's2' }], stats: { total_sessions: 2, ready: true } });
  });

  it('a patch carries only the changed sessions and the ids that left; nothing when nothing changed', () => {
    expect(data(patchFrame(A, B))).toEqual({ changed: [expect.objectContaining({ session_id: 's1', activity: 'writing' })], removed: [], stats: B.stats });
    expect(data(patchFrame(B, C))).toEqual({ changed: [], removed: ['s2'], stats: C.stats });
    expect(patchFrame(A, toSnapshot(views([s1, s2]), {}))).toBeUndefined();
  });

  it('a connection gets its snapshot, then patches, a ready frame when discovery completes, and no empty frames', () => {
    rx().run(({ hot, expectObservable }) => {
      const snapshots = hot('a 999ms b 999ms c 999ms d', { a: early, b: A, c: toSnapshot(views([s1, s2]), {}), d: B });
      const patches = sharedPatches(snapshots, timing);
      expectObservable(patchConnectionFrames(() => early, patches, timing), '^ 4s !').toBe('a 999ms (pr) 1996ms q', {
        a: snapshotFrame(early),
        p: patchFrame(early, A),
        r: readyFrame(A),
        q: patchFrame(A, B),
      });
    });
  });

  it('a client that connected between two shared frames is patched from what it got, not from the shared base', () => {
    rx().run(({ hot, expectObservable }) => {
      const snapshots = hot('a 999ms b', { a: A, b: C });
      const patches = sharedPatches(snapshots, timing);
      // Connected with B (s1 already writing): the patch says only that s2 left.
      expectObservable(patchConnectionFrames(() => B, patches, timing), '^ 2s !').toBe('a 999ms p', { a: snapshotFrame(B), p: patchFrame(B, C) });
      expect(data(patchFrame(B, C))).toEqual({ changed: [], removed: ['s2'], stats: C.stats });
    });
  });
});
