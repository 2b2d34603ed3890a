import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { startPipeline, type Pipeline } from '../../src/app/pipeline.js';
import type { SessionsState } from '../../src/core/contracts.js';
import type { SessionEvent } from '../../src/core/session.js';
import { NOT_A_WORKTREE } from '../../src/streams/worktree.js';
import { EPOCH, rx, testConfig, testCtx } from '../helpers/marbles.js';

const turn = (sessionId: string, agoMs: number, extra: Partial<SessionEvent> = {}): SessionEvent[] => [
  { agent: 'claude', sessionId, type: 'meta', patch: { cwd: `/w/${sessionId}`, ...('patch' in extra ? extra.patch : {}) } },
  { agent: 'claude', sessionId, type: 'turn', at: EPOCH - agoMs, role: 'assistant', text: 'done' },
];

describe('startPipeline views', () => {
  it('lists summaries and details with the config visibility: window, exclusions, sub-agents hidden, newest first', () => {
    const scheduler = rx();
    let state: SessionsState | undefined;
    let pipeline: Pipeline | undefined;
    scheduler.run(() => {
      const events: SessionEvent[] = [
        ...turn('old', 31 * 60_000),
        ...turn('a', 60_000),
        ...turn('b', 30_000),
        ...turn('hidden', 1_000, { patch: { isSidechain: true } } as Partial<SessionEvent>),
        ...turn('skip-me', 1_000),
        { type: 'ready', agent: 'claude' },
      ];
      const ctx = testCtx(scheduler, testConfig({ exclude_cwd_substrings: ['skip-me'] }));
      const started = startPipeline(ctx, { sources: { claude: () => of(...events) }, agents: ['claude'] });
      started.state$.subscribe((s) => (state = s));
      scheduler.schedule(() => void started.dispose(), 10);
      pipeline = started;
    });
    if (!state || !pipeline) throw new Error('the pipeline emitted no state');
    const summaries = pipeline.views.summaries(state, { now: EPOCH, customNames: { a: 'named' } });
    expect(summaries.map((s) => [s.session_id, s.activity, s.custom_name])).toEqual([
      ['b', 'waiting', ''],
      ['a', 'waiting', 'named'],
    ]);
    const all = pipeline.views.details(state, { now: EPOCH, worktree: () => NOT_A_WORKTREE, visibility: { ...pipeline.visibility, windowMinutes: undefined } });
    expect(all.map((s) => s.session_id)).toEqual(['b', 'a', 'old']);
  });
});
