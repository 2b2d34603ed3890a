import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { createSessionStore } from '../../../src/sinks/http/store.js';
import { feedOf } from '../../helpers/listing-feed.js';
import type { WorktreeLookup } from '../../../src/streams/worktree.js';
import { initialFrame, stepFrame } from '../../../src/streams/frames.js';
import { NOT_A_WORKTREE } from '../../../src/streams/worktree.js';

/** The store over real pipeline frames (the pure fold), not hand-made views. */

const NOW = Date.parse('2026-11-21T12:00:00Z');
const minutesAgo = (m: number): number => NOW - m * 60_000;

const session = (sessionId: string, cwd: string, at: number, extra: Partial<{ isSidechain: boolean }> = {}): SessionEvent[] => [
  { type: 'meta', agent: 'claude', sessionId, patch: { cwd, model: 'claude-sonnet-4-5', ...extra } },
  { type: 'turn', agent: 'claude', sessionId, at, role: 'user', text: 'hello' },
];

const frameOf = (events: SessionEvent[]) =>
  stepFrame(initialFrame(['claude'], NOW), { events: [...events, { type: 'ready', agent: 'claude' }], now: NOW });

const visibility = { windowMinutes: 30, excludeCwdSubstrings: ['/secret/'], agents: new Set(['claude'] as const) };

const storeOf = (frame: ReturnType<typeof frameOf>, worktree: WorktreeLookup = () => NOT_A_WORKTREE) =>
  createSessionStore({ feed: feedOf(frame, visibility), worktree, names: {}, saveName: async () => ({}) });

describe('the API store over pipeline frames', () => {
  it('lists visible sessions newest first, finds older ones by id, never hidden ones', () => {
    const frame = frameOf([
      ...session('recent', '/work/a', minutesAgo(1)),
      ...session('newest', '/work/b', minutesAgo(0.5)),
      ...session('old', '/work/c', minutesAgo(90)),
      ...session('side', '/work/a', minutesAgo(1), { isSidechain: true }),
      ...session('excluded', '/work/secret/x', minutesAgo(1)),
    ]);
    const snapshot = storeOf(frame).current();
    expect(snapshot.summaries.map((s) => s.session_id)).toEqual(['newest', 'recent']);
    expect(snapshot.stats).toEqual({ total_sessions: 2, active_sessions: 0, window_minutes: 30, ready: true, diagnostics: 0 });
    expect(snapshot.summaries[0]).toMatchObject({ agent: 'claude', cwd: '/work/b', short_name: 'b', custom_name: '', model: 'claude-sonnet-4-5' });
    expect(JSON.parse(snapshot.summariesBytes.toString())).toEqual(snapshot.summaries);
    expect(snapshot.find('old')?.session_id).toBe('old');
    expect(snapshot.find('recent')).toMatchObject({ session_id: 'recent', recent_messages: [expect.objectContaining({ text: 'hello' })] });
    expect(snapshot.find('side')).toBeUndefined();
    expect(snapshot.find('excluded')).toBeUndefined();
    expect(snapshot.find('nope')).toBeUndefined();
  });

  it('fills worktree facts from the lookup', () => {
    const frame = frameOf(session('wt', '/work/repo-wt', minutesAgo(1)));
    const store = storeOf(frame, (cwd) => (cwd === '/work/repo-wt' ? { isWorktree: true, mainRepo: '/work/repo' } : NOT_A_WORKTREE));
    expect(store.current().find('wt')).toMatchObject({ is_worktree: true, main_repo: '/work/repo' });
  });
});
