import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionState } from '../../src/core/session.js';
import { reduceSession, type SessionScopedEvent } from '../../src/streams/reduce-session.js';
import { initialFoldState, reduceSessions, type FoldState } from '../../src/streams/sessions-reducer.js';

// Batches update per-session drafts in place; these tests prove that gives exactly the states of
// folding one event at a time, and that no state published by an earlier batch is ever modified.

const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
};

/** A seeded mix of every session-scoped event type over three sessions, with lists past their caps. */
const randomEvents = (seed: number, count: number): SessionScopedEvent[] => {
  const rand = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const events: SessionScopedEvent[] = [];
  const restored = new Map<string, SessionState>();
  for (let i = 0; i < count; i += 1) {
    const ref = { agent: 'claude', sessionId: pick(['a', 'b', 'c']) } as const;
    const at = 1_000 + i * 10;
    const callId = rand() < 0.2 ? undefined : `call-${Math.floor(rand() * 40)}`;
    const roll = rand();
    if (roll < 0.2) events.push({ ...ref, type: 'tool_call', at, name: pick(['Read', 'Edit', 'Bash']), ...(callId ? { callId } : {}), ...(rand() < 0.3 ? { filePath: `/w/f${i}.ts` } : {}) });
    else if (roll < 0.38) events.push({ ...ref, type: 'tool_result', at, ...(callId ? { callId } : {}) });
    else if (roll < 0.55) events.push({ ...ref, type: 'turn', at, role: pick(['user', 'assistant'] as const), text: rand() < 0.8 ? ` message ${i} ` : '', ...(rand() < 0.1 ? { counts: false } : {}) });
    else if (roll < 0.75) {
      const tokens = { input: Math.floor(rand() * 100), output: Math.floor(rand() * 50), cacheCreation: 1, cacheRead: 2 };
      const mode = rand() < 0.1 ? 'total' : undefined;
      events.push({ ...ref, type: 'usage', at, tokens, ...(mode ? { mode } : {}), ...(rand() < 0.8 ? { messageId: `m${Math.floor(rand() * 14)}` } : {}), ...(rand() < 0.5 ? { costUsd: 0.01 } : {}) });
    } else if (roll < 0.82) events.push({ ...ref, type: 'meta', patch: rand() < 0.5 ? { cwd: `/w/${i}` } : { model: `model-${i}`, isSidechain: rand() < 0.5 } });
    else if (roll < 0.87) events.push({ ...ref, type: 'checkpoint', checkpoint: { path: `/t/${ref.sessionId}.jsonl`, offset: i, size: i, mtimeMs: at } });
    else if (roll < 0.9) events.push({ ...ref, type: 'compaction', at, phase: pick(['start', 'end'] as const) });
    else if (roll < 0.92) events.push({ ...ref, type: 'reset' });
    else if (roll < 0.94) events.push({ ...ref, type: 'removed' });
    else if (roll < 0.96) {
      // A restore hands over a state object from elsewhere (the cache): it must stay untouched too.
      const state = restored.get(ref.sessionId) ?? deepFreeze({ ...(reduceSession(undefined, { ...ref, type: 'turn', at, role: 'user', text: 'restored' }) as SessionState) });
      restored.set(ref.sessionId, state);
      events.push({ ...ref, type: 'restore', state });
    } else events.push({ ...ref, type: 'turn', at, role: 'user', text: `prompt ${i}` });
  }
  return events;
};

/** The reference: every event folded on its own. */
const foldOneByOne = (events: readonly SessionScopedEvent[]): Map<string, SessionState> => {
  const states = new Map<string, SessionState>();
  for (const e of events) {
    const next = reduceSession(states.get(e.sessionId), e);
    if (next) states.set(e.sessionId, next);
    else states.delete(e.sessionId);
  }
  return states;
};

/** The same events in random batches; every published state is frozen before the next batch runs. */
const foldInBatches = (events: readonly SessionEvent[], seed: number): FoldState => {
  const rand = mulberry32(seed);
  let state = initialFoldState(['claude']);
  for (let i = 0; i < events.length; ) {
    const size = 1 + Math.floor(rand() * 60);
    state = reduceSessions(state, events.slice(i, i + size)).state;
    for (const session of state.sessions.values()) deepFreeze(session);
    i += size;
  }
  return state;
};

describe('reduceSessions with drafts', () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    it(`gives the states of one-event-at-a-time folding, without touching earlier states (seed ${seed})`, () => {
      const events = randomEvents(seed, 3_000);
      const batched = foldInBatches(events, seed * 7);
      const expected = foldOneByOne(events);
      expect(new Map([...batched.sessions].map(([key, s]) => [key.slice('claude:'.length), s]))).toEqual(expected);
      // Usage ids stay capped and in recency order, as the per-event fold keeps them.
      for (const s of batched.sessions.values()) expect(Object.keys(s.usageByMessage).length).toBeLessThanOrEqual(8);
    });
  }

  it('keeps a restored state object as is while no later event touches it (the cache knows it by identity)', () => {
    const ref = { agent: 'claude', sessionId: 'r' } as const;
    const restored = deepFreeze(reduceSession(undefined, { ...ref, type: 'turn', at: 5, role: 'user', text: 'hi' }) as SessionState);
    const { state } = reduceSessions(initialFoldState(['claude']), [{ ...ref, type: 'turn', at: 1, role: 'user' }, { ...ref, type: 'restore', state: restored }]);
    expect(state.sessions.get('claude:r')).toBe(restored);
    const after = reduceSessions(state, [{ ...ref, type: 'tool_call', at: 9, name: 'Read', callId: 'x' }]).state;
    expect(after.sessions.get('claude:r')).not.toBe(restored);
    expect(restored.pendingTools).toEqual([]);
    expect(after.sessions.get('claude:r')?.pendingTools).toHaveLength(1);
  });
});
