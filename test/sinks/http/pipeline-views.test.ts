import { firstValueFrom, of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { pipelineViews$ } from '../../../src/sinks/http/pipeline-views.js';
import { initialFrame, stepFrame } from '../../../src/streams/frames.js';
import { NOT_A_WORKTREE } from '../../../src/streams/worktree.js';

/** The adapter over real pipeline frames (the pure fold), not hand-made views. */

const NOW = Date.parse('2026-11-21T12:00:00Z');
const minutesAgo = (m: number): number => NOW - m * 60_000;

const session = (sessionId: string, cwd: string, at: number, extra: Partial<{ isSidechain: boolean }> = {}): SessionEvent[] => [
  { type: 'meta', agent: 'claude', sessionId, patch: { cwd, model: 'claude-sonnet-4-5', ...extra } },
  { type: 'turn', agent: 'claude', sessionId, at, role: 'user', text: 'hello' },
];

const frameOf = (events: SessionEvent[]) =>
  stepFrame(initialFrame(['claude'], NOW), { events: [...events, { type: 'ready', agent: 'claude' }], now: NOW });

const visibility = { windowMinutes: 30, excludeCwdSubstrings: ['/secret/'], agents: new Set(['claude'] as const) };

describe('pipelineViews$', () => {
  it('lists visible sessions newest first, finds older ones by id, never hidden ones', async () => {
    const frame = frameOf([
      ...session('recent', '/work/a', minutesAgo(1)),
      ...session('newest', '/work/b', minutesAgo(0.5)),
      ...session('old', '/work/c', minutesAgo(90)),
      ...session('side', '/work/a', minutesAgo(1), { isSidechain: true }),
      ...session('excluded', '/work/secret/x', minutesAgo(1)),
    ]);
    const views = await firstValueFrom(pipelineViews$(of(frame), { visibility, worktree: () => NOT_A_WORKTREE }));
    expect(views.visible.map((s) => s.session_id)).toEqual(['newest', 'recent']);
    expect(views.windowMinutes).toBe(30);
    expect(views.visible[0]).toMatchObject({ agent: 'claude', cwd: '/work/b', short_name: 'b', custom_name: '', model: 'claude-sonnet-4-5' });
    expect(views.lookup('old')?.session_id).toBe('old');
    expect(views.lookup('side')).toBeUndefined();
    expect(views.lookup('excluded')).toBeUndefined();
    expect(views.lookup('nope')).toBeUndefined();
  });

  it('fills worktree facts from the lookup', async () => {
    const frame = frameOf(session('wt', '/work/repo-wt', minutesAgo(1)));
    const views = await firstValueFrom(
      pipelineViews$(of(frame), { visibility, worktree: (cwd) => (cwd === '/work/repo-wt' ? { isWorktree: true, mainRepo: '/work/repo' } : NOT_A_WORKTREE) }),
    );
    expect(views.visible[0]).toMatchObject({ is_worktree: true, main_repo: '/work/repo' });
  });
});
