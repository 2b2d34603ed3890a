import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionState } from '../../src/core/session.js';
import { emptySession } from '../../src/streams/empty-session.js';
import { reduceSession, type SessionScopedEvent } from '../../src/streams/reduce-session.js';
import { initialFoldState, reduceSessions } from '../../src/streams/sessions-reducer.js';

const ref = { agent: 'claude', sessionId: 's1' } as const;
const fold = (events: readonly SessionScopedEvent[], start?: SessionState): SessionState | undefined =>
  events.reduce<SessionState | undefined>((s, e) => reduceSession(s, e), start);
const must = (s: SessionState | undefined): SessionState => {
  if (!s) throw new Error('session missing');
  return s;
};
const tokens = (input: number, output: number) => ({ input, output, cacheCreation: 0, cacheRead: 0 });

describe('reduceSession', () => {
  it('applies meta patches and leaves unset fields alone', () => {
    const s = must(fold([
      { ...ref, type: 'meta', patch: { cwd: '/w/a', model: 'm1' } },
      { ...ref, type: 'meta', patch: { model: 'm2', isSidechain: true } },
    ]));
    expect(s).toMatchObject({ cwd: '/w/a', model: 'm2', isSidechain: true, lastActivityAt: 0 });
  });

  it('counts turns, keeps recent messages capped and cut, skips non-counting turns', () => {
    const events: SessionScopedEvent[] = Array.from({ length: 12 }, (_, i) => ({ ...ref, type: 'turn', at: 1000 + i, role: i % 2 ? 'assistant' : 'user', text: `m${i}` }));
    events.push({ ...ref, type: 'turn', at: 2000, role: 'user', text: 'x'.repeat(400), counts: true });
    events.push({ ...ref, type: 'turn', at: 3000, role: 'user', text: 'injected context', counts: false });
    const s = must(fold(events));
    expect(s.userMessages).toBe(7);
    expect(s.assistantMessages).toBe(6);
    expect(s.recentMessages).toHaveLength(10);
    expect(s.recentMessages.at(-1)?.text).toHaveLength(300);
    expect(s.recentMessages[0]?.text).toBe('m3');
    expect(s).toMatchObject({ lastTurn: 'user', lastTurnAt: 3000, lastActivityAt: 3000 });
  });

  it('matches tool results by call id, marks the recent entry done, records the last file written', () => {
    const s = must(fold([
      { ...ref, type: 'tool_call', at: 10, name: 'Read', callId: 'a' },
      { ...ref, type: 'tool_call', at: 11, name: 'Edit', callId: 'b', filePath: '/w/a/x.ts' },
      { ...ref, type: 'tool_result', at: 12, callId: 'b' },
    ]));
    expect(s.pendingTools.map((t) => t.callId)).toEqual(['a']);
    expect(s.recentTools.map((t) => [t.name, t.done])).toEqual([['Read', false], ['Edit', true]]);
    expect(s).toMatchObject({ lastFileWrite: '/w/a/x.ts', lastFileWriteAt: 11, lastTurn: 'tool_result' });
  });

  it('answers the oldest pending call when a result has no call id', () => {
    const s = must(fold([
      { ...ref, type: 'tool_call', at: 10, name: 'Read' },
      { ...ref, type: 'tool_call', at: 11, name: 'Grep' },
      { ...ref, type: 'tool_result', at: 12 },
    ]));
    expect(s.pendingTools.map((t) => t.name)).toEqual(['Grep']);
    expect(s.recentTools.map((t) => t.done)).toEqual([true, false]);
  });

  it('drops calls left pending when a new prompt arrives (interrupted turn)', () => {
    const s = must(fold([
      { ...ref, type: 'tool_call', at: 10, name: 'Bash', callId: 'a' },
      { ...ref, type: 'turn', at: 20, role: 'user', text: 'stop, do this instead' },
    ]));
    expect(s.pendingTools).toEqual([]);
  });

  it('keeps the last 20 tool calls', () => {
    const s = must(fold(Array.from({ length: 25 }, (_, i): SessionScopedEvent => ({ ...ref, type: 'tool_call', at: i + 1, name: `T${i}` }))));
    expect(s.recentTools).toHaveLength(20);
    expect(s.recentTools[0]?.name).toBe('T5');
  });

  it('counts one response written over several lines once (usage deduped by message id)', () => {
    const s = must(fold([
      { ...ref, type: 'usage', messageId: 'msg_1', tokens: tokens(10, 5) },
      { ...ref, type: 'usage', messageId: 'msg_1', tokens: tokens(10, 7) },
      { ...ref, type: 'usage', messageId: 'msg_2', tokens: tokens(3, 1) },
      { ...ref, type: 'usage', tokens: tokens(1, 1), costUsd: 0.5 },
    ]));
    expect(s.tokens).toEqual(tokens(14, 9));
    expect(s.recordedCostUsd).toBe(0.5);
  });

  it('keeps apart what inline sub-agent turns spent (part of the totals), each response once, and counts their runs', () => {
    const s = must(fold([
      { ...ref, type: 'usage', messageId: 'msg_main', tokens: tokens(10, 5) },
      { ...ref, type: 'subagent_run', at: 1000 },
      { ...ref, type: 'usage', messageId: 'msg_sub', tokens: tokens(4, 2), costUsd: 0.25, subagent: true },
      { ...ref, type: 'usage', messageId: 'msg_sub', tokens: tokens(4, 6), costUsd: 0.25, subagent: true },
      { ...ref, type: 'subagent_run', at: 2000 },
      { ...ref, type: 'usage', tokens: tokens(1, 1), subagent: true },
    ]));
    expect(s.tokens).toEqual(tokens(15, 12));
    expect(s.recordedCostUsd).toBe(0.25);
    expect(s.inlineSubagents).toEqual({ sessions: 2, tokens: tokens(5, 7), costUsd: 0.25 });
    expect(s.subagents.sessions).toBe(0);
  });

  it('remembers the newest message ids only, newest last, and still dedupes a recent one', () => {
    const events: SessionScopedEvent[] = Array.from({ length: 12 }, (_, i) => ({ ...ref, type: 'usage', messageId: `m${i}`, tokens: tokens(1, 1) }));
    events.push({ ...ref, type: 'usage', messageId: 'm10', tokens: tokens(2, 2) });
    const s = must(fold(events));
    expect(Object.keys(s.usageByMessage)).toEqual(['m4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm11', 'm10']);
    expect(s.usageByMessage.m10).toEqual(tokens(2, 2));
    expect(s.tokens).toEqual(tokens(13, 13));
  });

  it('replaces totals for cumulative usage (codex)', () => {
    const s = must(fold([
      { ...ref, type: 'usage', mode: 'total', tokens: tokens(100, 10) },
      { ...ref, type: 'usage', mode: 'total', tokens: tokens(250, 30) },
    ]));
    expect(s.tokens).toEqual(tokens(250, 30));
  });

  it('records compaction start and end', () => {
    const s = must(fold([{ ...ref, type: 'compaction', at: 50, phase: 'start' }]));
    expect(s).toMatchObject({ compactionStartedAt: 50, compactionEndedAt: 0, lastActivityAt: 50 });
    expect(must(fold([{ ...ref, type: 'compaction', at: 70, phase: 'end' }], s))).toMatchObject({ compactionStartedAt: 50, compactionEndedAt: 70 });
  });

  it('never rewinds lastActivityAt for an older or unknown timestamp', () => {
    const s = must(fold([
      { ...ref, type: 'turn', at: 500, role: 'user' },
      { ...ref, type: 'turn', at: 0, role: 'assistant' },
    ]));
    expect(s.lastActivityAt).toBe(500);
  });

  it('keeps a checkpoint only until the next event; restore and reset replace; removed deletes', () => {
    const checkpoint = { path: '/p.jsonl', offset: 10, size: 10, mtimeMs: 1 };
    const withCp = must(fold([{ ...ref, type: 'turn', at: 1, role: 'user' }, { ...ref, type: 'checkpoint', checkpoint }]));
    expect(withCp.checkpoint).toEqual(checkpoint);
    expect(must(fold([{ ...ref, type: 'turn', at: 2, role: 'assistant' }], withCp)).checkpoint).toBeNull();
    const restored = { ...emptySession('claude', 's1'), cwd: '/restored', checkpoint };
    expect(fold([{ ...ref, type: 'restore', state: restored }], withCp)).toBe(restored);
    expect(fold([{ ...ref, type: 'reset' }], withCp)).toEqual(emptySession('claude', 's1'));
    expect(fold([{ ...ref, type: 'removed' }], withCp)).toBeUndefined();
  });
});

describe('reduceSessions', () => {
  it('counts diagnostics per agent and code, turns ready once every expected agent is ready', () => {
    const events: SessionEvent[] = [
      { type: 'diagnostic', agent: 'claude', code: 'E_JUNK_LINE', message: 'bad json' },
      { type: 'diagnostic', agent: 'claude', code: 'E_JUNK_LINE', message: 'bad json' },
      { type: 'ready', agent: 'claude' },
    ];
    const one = reduceSessions(initialFoldState(['claude', 'codex']), events).state;
    expect(one.diagnostics).toEqual({ 'claude:E_JUNK_LINE': 2 });
    expect(one.ready).toBe(false);
    const two = reduceSessions(one, [{ type: 'ready', agent: 'codex' }]).state;
    expect(two.ready).toBe(true);
  });

  it('is ready at once with no expected agents, returns the same state for an empty batch', () => {
    const state = initialFoldState([]);
    expect(state.ready).toBe(true);
    expect(reduceSessions(state, []).state).toBe(state);
  });

  it('keys sessions by agent and id, reports the keys a batch touched, leaves the input untouched', () => {
    const before = initialFoldState(['claude']);
    const { state, changed } = reduceSessions(before, [
      { agent: 'claude', sessionId: 'x', type: 'turn', at: 1, role: 'user' },
      { agent: 'codex', sessionId: 'x', type: 'turn', at: 2, role: 'user' },
    ]);
    expect([...state.sessions.keys()].sort()).toEqual(['claude:x', 'codex:x']);
    expect([...changed]).toEqual(['claude:x', 'codex:x']);
    expect(before.sessions.size).toBe(0);
  });
});
