import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { startPipeline } from '../../src/app/pipeline.js';
import type { SessionsState } from '../../src/core/contracts.js';
import type { SessionEvent, SessionState, Transition } from '../../src/core/session.js';
import { EPOCH, rx, testConfig, testCtx } from '../helpers/marbles.js';

/**
 * Pipeline.swapStates: a session's state is replaced by an equal one (a persisted state by its
 * lazy twin) only while the fold still holds the very state it was made from, with no transition.
 */
describe('Pipeline.swapStates', () => {
  it('replaces the current state by the equal one, announces nothing, and ignores a swap made from an older state', () => {
    const scheduler = rx();
    const states: SessionsState[] = [];
    const transitions: Transition[] = [];
    let swapped: SessionState | undefined;
    let stale: SessionState | undefined;
    scheduler.run(() => {
      const events: SessionEvent[] = [
        { agent: 'claude', sessionId: 's', type: 'meta', patch: { cwd: '/w/s' } },
        { agent: 'claude', sessionId: 's', type: 'turn', at: EPOCH - 60_000, role: 'assistant', text: 'done' },
        { agent: 'claude', sessionId: 't', type: 'turn', at: EPOCH - 30_000, role: 'user', text: 'go' },
        { type: 'ready', agent: 'claude' },
      ];
      const pipeline = startPipeline(testCtx(scheduler, testConfig({})), { sources: { claude: () => of(...events) }, agents: ['claude'] });
      pipeline.state$.subscribe((s) => states.push(s));
      pipeline.transitions$.subscribe((t) => transitions.push(t));
      scheduler.schedule(() => {
        const latest = states.at(-1) as SessionsState;
        const s = latest.sessions.get('claude:s') as SessionState;
        const t = latest.sessions.get('claude:t') as SessionState;
        swapped = { ...s };
        stale = { ...t, cwd: '/stale' };
        // `t` is swapped from a state the fold no longer holds: left alone.
        pipeline.swapStates([
          { from: s, to: swapped },
          { from: { ...t }, to: stale },
        ]);
      }, 5);
      scheduler.schedule(() => void pipeline.dispose(), 10);
    });
    const last = states.at(-1) as SessionsState;
    expect(last.sessions.get('claude:s')).toBe(swapped);
    expect(last.sessions.get('claude:t')?.cwd).toBe('');
    expect(transitions).toEqual([]);
  });
});
