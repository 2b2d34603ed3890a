import { NEVER, concat, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { startPipeline } from '../../src/app/pipeline.js';
import type { SessionEvent } from '../../src/core/session.js';
import { createSessionStore } from '../../src/sinks/http/store.js';
import { NOT_A_WORKTREE } from '../../src/streams/worktree.js';
import { EPOCH, rx, testConfig, testCtx } from '../helpers/marbles.js';

const MINUTE = 60_000;

const turn = (sessionId: string, agoMs: number): SessionEvent[] => [
  { agent: 'claude', sessionId, type: 'meta', patch: { cwd: `/w/${sessionId}` } },
  { agent: 'claude', sessionId, type: 'turn', at: EPOCH - agoMs, role: 'assistant', text: 'done' },
];

/**
 * The Settings panel changes the window, exclusions and agents of a running monitor: the listing
 * follows at once (a frame is emitted without any new record), and the window-edge deadlines
 * follow the NEW window, so a session leaves the list at its new edge with no event.
 */
describe('Pipeline.setVisibility', () => {
  it('re-lists at once and wakes at the new window edge', () => {
    const scheduler = rx();
    const seen: { at: number; ids: string[]; window: number }[] = [];
    scheduler.run(() => {
      const events: SessionEvent[] = [...turn('recent', 2 * MINUTE), ...turn('older', 40 * MINUTE), ...turn('codex-like', MINUTE), { type: 'ready', agent: 'claude' }];
      const ctx = testCtx(scheduler);
      // The source stays open (a watching source), so only time and setVisibility move the pipeline.
      const pipeline = startPipeline(ctx, { sources: { claude: () => concat(of(...events), NEVER) }, agents: ['claude'] });
      const store = createSessionStore({ feed: pipeline, worktree: () => NOT_A_WORKTREE, names: {}, saveName: async () => ({}) });
      store.snapshot$.subscribe((snapshot) =>
        seen.push({ at: scheduler.now(), ids: snapshot.summaries.map((d) => d.session_id), window: snapshot.stats.window_minutes }),
      );
      // t=1000: a 60-minute window lists `older` (40 min ago) until it is 60 minutes old.
      scheduler.schedule(() => pipeline.setVisibility({ ...pipeline.visibility, windowMinutes: 60 }), 1_000);
      // t=2000: an exclusion hides one session at once.
      scheduler.schedule(() => pipeline.setVisibility({ ...pipeline.visibility, excludeCwdSubstrings: ['codex-like'] }), 2_000);
      scheduler.schedule(() => void pipeline.dispose(), 21 * MINUTE);
    });
    const last = (before: number) => seen.filter((s) => s.at <= before).at(-1);
    expect(last(999)).toMatchObject({ ids: ['codex-like', 'recent'], window: 30 });
    expect(last(1_000)).toMatchObject({ ids: ['codex-like', 'recent', 'older'], window: 60 });
    expect(last(2_000)).toMatchObject({ ids: ['recent', 'older'], window: 60 });
    // `older` reaches the 60-minute edge 20 minutes after EPOCH: a frame without any record drops it.
    const dropped = seen.find((s) => s.at > 2_000 && !s.ids.includes('older'));
    expect(dropped?.at).toBe(20 * MINUTE);
    expect(dropped?.ids).toEqual(['recent']);
  });

  it('waiting_timeout_minutes decides when waiting turns idle; 0 keeps it waiting, and a change applies at once', () => {
    const scheduler = rx();
    const seen: { at: number; activity: string; since: string }[] = [];
    scheduler.run(() => {
      const events: SessionEvent[] = [...turn('s1', MINUTE), { type: 'ready', agent: 'claude' }];
      const ctx = testCtx(scheduler, testConfig({ waiting_timeout_minutes: 5 }));
      const pipeline = startPipeline(ctx, { sources: { claude: () => concat(of(...events), NEVER) }, agents: ['claude'] });
      const store = createSessionStore({ feed: pipeline, worktree: () => NOT_A_WORKTREE, names: {}, saveName: async () => ({}) });
      store.snapshot$.subscribe((snapshot) => {
        const s = snapshot.summaries[0];
        if (s) seen.push({ at: scheduler.now(), activity: s.activity, since: s.waiting_since });
      });
      // t=10 min: 0 means no timeout; the session, idle since 4 min, waits again.
      scheduler.schedule(() => pipeline.setVisibility({ ...pipeline.visibility, waitingTimeoutMinutes: 0 }), 10 * MINUTE);
      scheduler.schedule(() => void pipeline.dispose(), 25 * MINUTE);
    });
    const last = (before: number) => seen.filter((s) => s.at <= before).at(-1);
    const answered = new Date(EPOCH - MINUTE).toISOString();
    expect(last(0)).toEqual({ at: 0, activity: 'waiting', since: answered });
    // The answer was 1 minute before the start: 5 minutes after it is 4 minutes in.
    expect(last(4 * MINUTE - 1)?.activity).toBe('waiting');
    expect(last(4 * MINUTE)).toEqual({ at: 4 * MINUTE, activity: 'idle', since: '' });
    expect(last(25 * MINUTE)).toEqual({ at: 10 * MINUTE, activity: 'waiting', since: answered });
  });
});
