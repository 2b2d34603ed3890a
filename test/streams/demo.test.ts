import { take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { startPipeline } from '../../src/app/pipeline.js';
import { AGENT_KINDS } from '../../src/core/agents.js';
import { ACTIVITIES, type Activity } from '../../src/core/activity.js';
import type { SessionEvent } from '../../src/core/session.js';
import type { Sink } from '../../src/streams/sink.js';
import { demoSource } from '../../src/demo/source.js';
import { DEMO_SESSIONS } from '../../src/sources/agents.js';
import { selectVisible } from '../../src/streams/visibility.js';
import { EPOCH, rx, testCtx } from '../helpers/marbles.js';

describe('demo source', () => {
  it('emits a session for every agent and ready for each, synchronously on subscribe', () => {
    const events: SessionEvent[] = [];
    demoSource(rx(), DEMO_SESSIONS, [...AGENT_KINDS], () => EPOCH).subscribe((event) => events.push(event)).unsubscribe();
    expect([...new Set(events.flatMap((e) => (e.type === 'meta' ? [e.agent] : [])))].sort()).toEqual([...AGENT_KINDS]);
    expect(events.filter((e) => e.type === 'ready').map((e) => e.agent)).toEqual([...AGENT_KINDS]);
    expect(events.every((e) => !('at' in e) || e.at === undefined || (e.at <= EPOCH && e.at > EPOCH - 600_000))).toBe(true);
  });

  it('demo for some agents only', () => {
    const events: SessionEvent[] = [];
    demoSource(rx(), DEMO_SESSIONS, ['pi'], () => EPOCH).subscribe((event) => events.push(event)).unsubscribe();
    expect(new Set(events.map((e) => e.agent))).toEqual(new Set(['pi']));
  });

  it('drives live sessions whose activities change over virtual time, and stops on dispose', () => {
    const scheduler = rx();
    const seen = new Map<string, Set<Activity>>();
    let transitions = 0;
    let teardownCalled = false;
    const sink: Sink = ({ transitions$ }) => {
      const subscription = transitions$.subscribe(() => (transitions += 1));
      return () => {
        teardownCalled = true;
        subscription.unsubscribe();
      };
    };
    scheduler.run(() => {
      const pipeline = startPipeline(testCtx(scheduler), { sources: {}, agents: [...AGENT_KINDS], demo: true, sinks: [sink] });
      pipeline.frame$.subscribe((frame) => {
        for (const [key, activity] of frame.activities) {
          const set = seen.get(key) ?? new Set<Activity>();
          set.add(activity);
          seen.set(key, set);
        }
      });
      scheduler.schedule(() => void pipeline.dispose(), 10 * 60_000);
    });
    expect(teardownCalled).toBe(true);
    expect(seen.size).toBe(DEMO_SESSIONS.length);
    expect(transitions).toBeGreaterThan(50);
    for (const [key, activities] of seen) {
      expect(activities.size, `${key} changes state`).toBeGreaterThanOrEqual(4);
    }
    const union = new Set([...seen.values()].flatMap((set) => [...set]));
    expect([...union].sort()).toEqual([...ACTIVITIES].sort());
  });

  it('starts varied: the first snapshot already shows several activities; the sub-agent stays hidden', () => {
    const scheduler = rx();
    scheduler.run(() => {
      const pipeline = startPipeline(testCtx(scheduler), { sources: {}, agents: [...AGENT_KINDS], demo: true });
      let first: string[] = [];
      let visible = 0;
      pipeline.frame$.pipe(take(2)).subscribe((frame) => {
        first = [...frame.activities.values()];
        visible = selectVisible(frame.state.sessions.values(), frame.now, pipeline.visibility).length;
        expect(frame.now).toBe(EPOCH);
      });
      scheduler.schedule(() => void pipeline.dispose(), 1);
      scheduler.flush();
      expect(new Set(first).size).toBeGreaterThanOrEqual(4);
      expect(visible).toBe(DEMO_SESSIONS.filter((s) => !s.meta.isSidechain).length);
    });
  });
});
