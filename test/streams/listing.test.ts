import { describe, expect, it } from 'vitest';
import type { AgentKind } from '../../src/core/agents.js';
import type { SessionEvent } from '../../src/core/session.js';
import type { SessionNames } from '../../src/config/session-names.js';
import { initialFrame, stepFrame, type PipelineFrame } from '../../src/streams/frames.js';
import { createListing } from '../../src/streams/listing.js';
import { toSummary } from '../../src/streams/views.js';
import { selectVisible, type VisibilityOptions } from '../../src/streams/visibility.js';

/**
 * The cached listing against the plain definition, on random histories through the real fold:
 * after any frame (events, or a deadline passing), reading the listing gives exactly the sessions
 * `selectVisible` lists, newest first, with the summaries `toSummary` builds at the frame's time,
 * and the changes it reports, applied to a copy (as a `?format=patch` client does), rebuild it.
 */
const T0 = Date.UTC(2026, 2, 10, 9, 0, 0);
const WINDOW_MIN = 30;

const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const visibility: VisibilityOptions = { windowMinutes: WINDOW_MIN, excludeCwdSubstrings: ['/secret'], agents: new Set<AgentKind>(['claude', 'codex']) };

const randomBatch = (rand: () => number, now: number): SessionEvent[] => {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const events: SessionEvent[] = [];
  for (let n = 1 + Math.floor(rand() * 4); n > 0; n -= 1) {
    // Ids are unique across agents (the wire names a session by its id alone, as lazyagent does).
    const agent = pick(['claude', 'codex', 'pi'] as const);
    const ref = { agent, sessionId: `${agent}-${Math.floor(rand() * 5)}` };
    // Records are stamped up to 40 minutes back, so some land outside the window at once.
    const at = now - Math.floor(rand() * (rand() < 0.2 ? 40 * 60_000 : 60_000));
    const roll = rand();
    if (roll < 0.3) events.push({ ...ref, type: 'turn', at, role: pick(['user', 'assistant'] as const), text: `t${Math.floor(rand() * 100)}` });
    else if (roll < 0.5) events.push({ ...ref, type: 'tool_call', at, name: pick(['Read', 'Bash', 'Task', 'Edit']), callId: `c${Math.floor(rand() * 3)}` });
    else if (roll < 0.6) events.push({ ...ref, type: 'tool_result', at, callId: `c${Math.floor(rand() * 3)}` });
    else if (roll < 0.7) events.push({ ...ref, type: 'compaction', at, phase: pick(['start', 'end'] as const) });
    else if (roll < 0.8) events.push({ ...ref, type: 'meta', patch: { cwd: pick(['/w/a', '/w/b', '/w/secret/c', '/w/d']), ...(rand() < 0.1 ? { isSidechain: rand() < 0.5 } : {}) } });
    else if (roll < 0.88) events.push({ ...ref, type: 'usage', tokens: { input: 100, output: 10, cacheCreation: 0, cacheRead: 0 } });
    else if (roll < 0.93) events.push({ ...ref, type: 'checkpoint', checkpoint: { path: `/t/${ref.sessionId}`, offset: n, size: n, mtimeMs: now } });
    else events.push({ ...ref, type: 'removed' });
  }
  return events;
};

const expectedList = (frame: PipelineFrame, names: SessionNames): string[] =>
  selectVisible(frame.state.sessions.values(), frame.now, visibility).map((s) => JSON.stringify(toSummary(s, { now: frame.now, customNames: names })));

describe('createListing', () => {
  it('matches selectVisible + toSummary after every read, on random histories with deadlines and window edges', () => {
    for (let seed = 1; seed <= 30; seed += 1) {
      const rand = mulberry32(seed);
      let frame = stepFrame(initialFrame(['claude', 'codex', 'pi'], T0), {
        events: [{ type: 'ready', agent: 'claude' }, { type: 'ready', agent: 'codex' }, { type: 'ready', agent: 'pi' }],
        now: T0,
      }, { windowMs: WINDOW_MIN * 60_000 });
      let names: SessionNames = {};
      const listing = createListing({ visibility: () => visibility });
      const client = new Map<string, string>();
      let now = T0;
      let reads = 0;
      for (let step = 0; step < 250; step += 1) {
        // Either the next batch of records, or the next deadline if it comes first (as the pipeline's timer does).
        const nextEvents = now + Math.floor(rand() * 20_000);
        if (frame.nextWakeAt <= nextEvents) {
          now = frame.nextWakeAt;
          frame = stepFrame(frame, { events: [], now }, { windowMs: WINDOW_MIN * 60_000 });
        } else {
          now = nextEvents;
          frame = stepFrame(frame, { events: randomBatch(rand, now), now }, { windowMs: WINDOW_MIN * 60_000 });
        }
        listing.push(frame);
        if (rand() < 0.05) {
          names = { ...names, [`${rand() < 0.5 ? 'claude' : 'codex'}-${Math.floor(rand() * 5)}`]: rand() < 0.5 ? `name ${step}` : '' };
          listing.setNames(names);
        }
        // Reads come at random frames, as requests do: changes pile up in between.
        if (rand() < 0.5) continue;
        reads += 1;
        const changes = listing.refresh();
        for (const id of changes.removed) client.delete(id);
        for (const entry of changes.changed) client.set(entry.summary.session_id, entry.json);
        const expected = expectedList(frame, names);
        const listed = listing.sessions();
        expect(listed.map((e) => e.json), `seed ${seed} step ${step}`).toEqual(expected);
        expect([...client.values()].sort(), `seed ${seed} step ${step}: the patched copy`).toEqual([...expected].sort());
        const summaries = listed.map((e) => e.summary);
        expect(listing.counts()).toEqual({
          total: summaries.length,
          active: summaries.filter((s) => s.is_active).length,
          waiting: summaries.filter((s) => s.activity === 'waiting').length,
        });
      }
      expect(reads).toBeGreaterThan(50);
    }
  });

  it('rebuilds only the sessions a frame touched: the others keep their entry (and its JSON) as they were', () => {
    const prompt = (sessionId: string, at: number): SessionEvent => ({ agent: 'claude', sessionId, type: 'turn', at, role: 'user', text: 'go' });
    let frame = stepFrame(initialFrame(['claude'], T0), { events: [prompt('a', T0 - 5_000), prompt('b', T0 - 4_000), { type: 'ready', agent: 'claude' }], now: T0 });
    const listing = createListing({ visibility: () => visibility });
    listing.push(frame);
    listing.refresh();
    const [b1, a1] = listing.sessions();
    frame = stepFrame(frame, { events: [prompt('a', T0 + 1_000)], now: T0 + 1_000 });
    listing.push(frame);
    expect(listing.refresh().changed.map((e) => e.summary.session_id)).toEqual(['a']);
    const [a2, b2] = listing.sessions();
    expect(b2).toBe(b1);
    expect(a2).not.toBe(a1);
    expect(a2?.summary.session_id).toBe('a');
    // Nothing touched, nothing rebuilt: the same array.
    const before = listing.sessions();
    listing.push(stepFrame(frame, { events: [], now: T0 + 1_001 }));
    expect(listing.refresh()).toEqual({ changed: [], removed: [] });
    expect(listing.sessions()).toBe(before);
  });

  it('shows the activity the fold derived for the frame, and its display name', () => {
    const prompt = (sessionId: string, at: number): SessionEvent => ({ agent: 'claude', sessionId, type: 'turn', at, role: 'user', text: '## Fix the **parser**' });
    const frame = stepFrame(initialFrame(['claude'], T0), { events: [prompt('a', T0 - 5_000), { type: 'ready', agent: 'claude' }], now: T0 });
    expect(frame.activities.get('claude:a')).toBe('thinking');
    // The listing reads the frame's activities: one the fold would not derive shows as it is.
    const listing = createListing({ visibility: () => visibility });
    listing.push({ ...frame, activities: new Map([['claude:a', 'writing']]) });
    listing.refresh();
    expect(listing.sessions().map((e) => [e.activity, e.summary.activity, e.summary.display_name])).toEqual([['writing', 'writing', 'Fix the parser']]);
  });

  it('with a window of its own, drops what crossed its edge when read later, and tells every follower', () => {
    const prompt = (sessionId: string, at: number): SessionEvent => ({ agent: 'claude', sessionId, type: 'turn', at, role: 'user', text: 'go' });
    // The fold's window is 30 minutes; this view lists 10 (a narrowed terminal list): no frame
    // comes when a session crosses the 10-minute edge, the read at a later time finds it.
    const frame = stepFrame(initialFrame(['claude'], T0), { events: [prompt('old', T0 - 9 * 60_000), prompt('new', T0 - 60_000), { type: 'ready', agent: 'claude' }], now: T0 }, { windowMs: WINDOW_MIN * 60_000 });
    const listing = createListing({ visibility: () => ({ ...visibility, windowMinutes: 10 }) });
    const told: string[][] = [];
    listing.onChanges((changes) => told.push(changes.removed.map(String)));
    listing.push(frame);
    listing.refresh(T0);
    expect(listing.sessions().map((e) => e.state.sessionId)).toEqual(['new', 'old']);
    expect(listing.refresh(T0 + 60_000 - 1)).toEqual({ changed: [], removed: [] });
    expect(listing.refresh(T0 + 60_000).removed).toEqual(['old']);
    expect(listing.sessions().map((e) => e.state.sessionId)).toEqual(['new']);
    expect(listing.counts().total).toBe(1);
    expect(told).toEqual([[], ['old']]);
  });
});
