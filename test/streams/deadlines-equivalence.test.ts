import { describe, expect, it } from 'vitest';
import type { Activity } from '../../src/core/activity.js';
import type { SessionEvent, SessionKey, Transition } from '../../src/core/session.js';
import { deriveActivity } from '../../src/streams/activity.js';
import { initialFrame, stepFrame, type PipelineFrame } from '../../src/streams/frames.js';
import { initialFoldState, reduceSessions, type FoldState } from '../../src/streams/sessions-reducer.js';

/**
 * The deadline pipeline against the wave-1 one it replaced (every session re-derived on a 1 s
 * tick), on the scenarios of pipeline.marbles.test.ts and on random second-aligned histories:
 * the same activities at every tick instant and the same transitions at the same times. Records
 * on whole seconds put every deadline on a tick, where the old pipeline looked; between ticks the
 * new one is exact and the old one was up to a second late.
 */
const T0 = Date.UTC(2026, 2, 10, 9, 0, 0);
const TICK = 1_000;

/** The wave-1 step, kept here as the reference: events re-derive what they touched, a tick re-derives everything. */
interface OldFrame {
  readonly state: FoldState;
  readonly activities: Map<SessionKey, Activity>;
  readonly transitions: Transition[];
}
const oldStep = (frame: OldFrame, events: readonly SessionEvent[], now: number): OldFrame => {
  const { state, changed } = reduceSessions(frame.state, events);
  if (!state.ready) return { state, activities: frame.activities, transitions: [] };
  const keys = events.length === 0 || !frame.state.ready ? [...state.sessions.keys()] : [...changed];
  const activities = new Map(frame.activities);
  const transitions: Transition[] = [];
  for (const key of keys) {
    const s = state.sessions.get(key);
    if (!s) {
      activities.delete(key);
      continue;
    }
    const to = deriveActivity(s, now);
    const from = frame.activities.get(key);
    activities.set(key, to);
    if (frame.state.ready && from !== undefined && from !== to) transitions.push({ agent: s.agent, sessionId: s.sessionId, from, to, at: now, cwd: s.cwd, isSidechain: s.isSidechain });
  }
  return { state, activities, transitions };
};

type Scenario = readonly (readonly [ms: number, events: readonly SessionEvent[]])[];

interface Run {
  /** Activities as of each tick instant (after everything due at that instant). */
  readonly byTick: Map<number, Record<string, Activity>>;
  readonly transitions: Transition[];
}

/** Transitions in time order; sessions changing at the same instant in id order (their order is not meaningful). */
const ordered = (transitions: readonly Transition[]): Transition[] =>
  [...transitions].sort((a, b) => a.at - b.at || (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0));

const asRecord = (activities: ReadonlyMap<SessionKey, Activity>): Record<string, Activity> => Object.fromEntries([...activities].sort(([a], [b]) => (a < b ? -1 : 1)));

/** The old pipeline: events at their instants, a tick every second (ticks after events at the same instant). */
const runOld = (scenario: Scenario, horizon: number): Run => {
  let frame: OldFrame = { state: initialFoldState(['claude']), activities: new Map(), transitions: [] };
  const byTick = new Map<number, Record<string, Activity>>();
  const transitions: Transition[] = [];
  let next = 0;
  for (let t = 0; t <= horizon; t += TICK) {
    while (next < scenario.length && (scenario[next] as Scenario[number])[0] <= t) {
      const [ms, events] = scenario[next] as Scenario[number];
      frame = oldStep(frame, events, T0 + ms);
      transitions.push(...frame.transitions);
      next += 1;
    }
    if (t > 0) {
      frame = oldStep(frame, [], T0 + t);
      transitions.push(...frame.transitions);
    }
    byTick.set(t, asRecord(frame.activities));
  }
  return { byTick, transitions };
};

/** The new pipeline: events at their instants, a wake only at the earliest deadline. */
const runNew = (scenario: Scenario, horizon: number): Run & { wakes: number } => {
  let frame: PipelineFrame = initialFrame(['claude'], T0);
  const byTick = new Map<number, Record<string, Activity>>();
  const transitions: Transition[] = [];
  let next = 0;
  let wakes = 0;
  for (let t = 0; t <= horizon; t += TICK) {
    for (;;) {
      const eventAt = next < scenario.length ? (scenario[next] as Scenario[number])[0] : Number.POSITIVE_INFINITY;
      const wakeAt = frame.nextWakeAt - T0;
      if (Math.min(eventAt, wakeAt) > t) break;
      if (wakeAt < eventAt) {
        frame = stepFrame(frame, { events: [], now: T0 + wakeAt });
        wakes += 1;
      } else {
        frame = stepFrame(frame, { events: (scenario[next] as Scenario[number])[1], now: T0 + eventAt });
        next += 1;
      }
      transitions.push(...frame.transitions);
    }
    byTick.set(t, asRecord(frame.activities));
  }
  return { byTick, transitions, wakes };
};

const at = (ms: number): number => T0 + ms;
const READY: SessionEvent = { type: 'ready', agent: 'claude' };
const prompt = (ms: number, sessionId = 's1'): SessionEvent => ({ agent: 'claude', sessionId, type: 'turn', at: at(ms), role: 'user', text: 'do it' });
const answer = (ms: number, sessionId = 's1'): SessionEvent => ({ agent: 'claude', sessionId, type: 'turn', at: at(ms), role: 'assistant', text: 'done' });
const call = (ms: number, name: string, callId: string, sessionId = 's1'): SessionEvent => ({ agent: 'claude', sessionId, type: 'tool_call', at: at(ms), name, callId });
const result = (ms: number, callId: string, sessionId = 's1'): SessionEvent => ({ agent: 'claude', sessionId, type: 'tool_result', at: at(ms), callId });
const compaction = (ms: number, phase: 'start' | 'end', sessionId = 's1'): SessionEvent => ({ agent: 'claude', sessionId, type: 'compaction', at: at(ms), phase });

/** The scenarios of pipeline.marbles.test.ts, as timed batches. */
const SCENARIOS: Record<string, readonly [Scenario, number]> = {
  'grace, waiting, idle': [[[0, [READY, prompt(0)]], [5_000, [answer(5_000)]]], 200_000],
  'tool loop': [
    [[0, [READY, prompt(0)]], [2_000, [call(2_000, 'Read', 'a')]], [3_000, [result(3_000, 'a')]], [4_000, [call(4_000, 'Bash', 'b')]], [10_000, [result(10_000, 'b')]], [12_000, [answer(12_000)]]],
    140_000,
  ],
  'pending tool and sub-agent timeouts': [[[0, [READY, prompt(0)]], [1_000, [call(1_000, 'Bash', 'b')]], [40_000, [call(40_000, 'Task', 't')]]], 1_300_000],
  compaction: [[[0, [READY, prompt(0)]], [2_000, [compaction(2_000, 'start')]], [8_000, [compaction(8_000, 'end')]], [40_000, [compaction(40_000, 'start')]]], 100_000],
  'history before ready': [[[0, [prompt(0)]], [1_000, [call(1_000, 'Read', 'a')]], [2_000, [READY]], [50_000, [prompt(50_000, 's2')]]], 100_000],
};

const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** Random sessions' records on whole seconds (some stamped in the past, as a replayed history is). */
const randomScenario = (seed: number): Scenario => {
  const rand = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const scenario: [number, SessionEvent[]][] = [[0, [READY]]];
  let t = 0;
  for (let i = 0; i < 60; i += 1) {
    t += TICK * Math.floor(1 + rand() * 20);
    const sessionId = `s${Math.floor(rand() * 4)}`;
    const stamp = t - TICK * Math.floor(rand() < 0.2 ? rand() * 200 : 0);
    const roll = rand();
    const event =
      roll < 0.25
        ? prompt(stamp, sessionId)
        : roll < 0.5
          ? answer(stamp, sessionId)
          : roll < 0.7
            ? call(stamp, pick(['Read', 'Bash', 'Task', 'WebFetch']), `c${Math.floor(rand() * 3)}`, sessionId)
            : roll < 0.9
              ? result(stamp, `c${Math.floor(rand() * 3)}`, sessionId)
              : compaction(stamp, pick(['start', 'end'] as const), sessionId);
    scenario.push([t, [event]]);
  }
  return scenario;
};

describe('deadline pipeline vs the 1 s tick pipeline', () => {
  for (const [name, [scenario, horizon]] of Object.entries(SCENARIOS)) {
    it(`${name}: same activities at every tick, same transitions at the same times`, () => {
      const before = runOld(scenario, horizon);
      const after = runNew(scenario, horizon);
      expect(ordered(after.transitions)).toEqual(ordered(before.transitions));
      expect(after.byTick).toEqual(before.byTick);
      // The old pipeline looked at every session every second; the new one only at deadlines.
      expect(after.wakes).toBeLessThan(horizon / TICK / 10);
    });
  }

  it('same on 40 random histories of four sessions (records on whole seconds, some replayed from the past)', () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      const scenario = randomScenario(seed);
      const horizon = (scenario.at(-1)?.[0] ?? 0) + 1_300_000;
      const before = runOld(scenario, horizon);
      const after = runNew(scenario, horizon);
      expect(ordered(after.transitions), `seed ${seed}`).toEqual(ordered(before.transitions));
      expect(before.transitions.length).toBeGreaterThan(0);
      expect(after.byTick, `seed ${seed}`).toEqual(before.byTick);
    }
  });
});
