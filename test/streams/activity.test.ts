import { describe, expect, it } from 'vitest';
import type { SessionState, ToolUse } from '../../src/core/session.js';
import { activityRules, deriveActivity, nextChangeAt, resolveActivity } from '../../src/streams/activity.js';
import { emptySession } from '../../src/streams/empty-session.js';

const T = 1_773_133_200_000; // a fixed "now"
const s = (patch: Partial<SessionState>): SessionState => ({ ...emptySession('claude', 's'), ...patch });
const tool = (name: string, at: number, done: boolean, callId = name): ToolUse => ({ name, at, done, callId });
const ago = (ms: number): number => T - ms;

describe('resolveActivity: answers (grace, waiting, idle)', () => {
  it.each([
    [0, 'thinking'],
    [9_999, 'thinking'],
    [10_000, 'waiting'],
    [60_000, 'waiting'],
    [119_999, 'waiting'],
    [120_000, 'idle'],
  ] as const)('answer %i ms ago -> %s', (age, expected) => {
    expect(deriveActivity(s({ lastTurn: 'assistant', lastTurnAt: ago(age), lastActivityAt: ago(age) }), T)).toBe(expected);
  });

  it.each([
    [5, 299_999, 'waiting'],
    [5, 300_000, 'idle'],
    [0, 86_400_000, 'waiting'],
    [0, 5_000, 'thinking'],
  ] as const)('waiting_timeout_minutes %i: answer %i ms ago -> %s', (minutes, age, expected) => {
    const session = s({ lastTurn: 'assistant', lastTurnAt: ago(age), lastActivityAt: ago(age) });
    expect(deriveActivity(session, T, activityRules(minutes))).toBe(expected);
  });

  it('the waiting timeout is a deadline; with 0 waiting has none', () => {
    const session = s({ lastTurn: 'assistant', lastTurnAt: ago(60_000), lastActivityAt: ago(60_000) });
    expect(nextChangeAt(session, T, activityRules(5))).toBe(ago(60_000) + 300_000);
    expect(nextChangeAt(session, T, activityRules(0))).toBe(Number.POSITIVE_INFINITY);
    expect(nextChangeAt(session, T)).toBe(ago(60_000) + 120_000);
  });

  it('a tool that got its result and was followed by an answer is not running: the answer decides', () => {
    const session = s({ lastTurn: 'assistant', lastTurnAt: ago(15_000), recentTools: [tool('Bash', ago(20_000), true)] });
    expect(deriveActivity(session, T)).toBe('waiting');
  });

  it('an answer wins over a call that never got its result', () => {
    const session = s({ lastTurn: 'assistant', lastTurnAt: ago(15_000), pendingTools: [tool('Bash', ago(16_000), false)] });
    expect(deriveActivity(session, T)).toBe('waiting');
  });
});

describe('resolveActivity: prompts and tool calls', () => {
  it.each([
    [1_000, 'thinking'],
    [29_999, 'thinking'],
    [30_000, 'idle'],
  ] as const)('prompt %i ms ago -> %s', (age, expected) => {
    expect(deriveActivity(s({ lastTurn: 'user', lastTurnAt: ago(age) }), T)).toBe(expected);
  });

  it.each([
    ['Read', 5_000, 'reading'],
    ['read_file', 5_000, 'reading'],
    ['Edit', 29_000, 'writing'],
    ['apply_patch', 1_000, 'writing'],
    ['exec_command', 1_000, 'running'],
    ['Grep', 1_000, 'searching'],
    ['WebFetch', 1_000, 'browsing'],
    ['Bash', 30_000, 'idle'],
    ['Task', 60_000, 'spawning'],
    ['spawn_agent', 19 * 60_000, 'spawning'],
    ['Agent', 20 * 60_000, 'idle'],
  ] as const)('pending %s called %i ms ago -> %s', (name, age, expected) => {
    const pending = tool(name, ago(age), false);
    const session = s({ lastTurn: 'tool_call', lastTurnAt: ago(age), pendingTools: [pending], recentTools: [pending] });
    expect(resolveActivity(session, T)).toEqual({ activity: expected, tool: expected === 'idle' ? '' : name });
  });

  it('after a result the finished tool keeps its activity for 30 s from its call (burst of reads reads "reading")', () => {
    const session = s({ lastTurn: 'tool_result', lastTurnAt: ago(1_000), recentTools: [tool('Read', ago(2_000), true)] });
    expect(resolveActivity(session, T)).toEqual({ activity: 'reading', tool: 'Read' });
  });

  it('after a result whose call is older than 30 s: thinking for 30 s after the result, then idle', () => {
    const recentTools = [tool('Bash', ago(90_000), true)];
    expect(deriveActivity(s({ lastTurn: 'tool_result', lastTurnAt: ago(5_000), recentTools }), T)).toBe('thinking');
    expect(deriveActivity(s({ lastTurn: 'tool_result', lastTurnAt: ago(30_000), recentTools }), T)).toBe('idle');
  });

  it('a still-pending parallel call decides after the result of another call', () => {
    const agent = tool('Task', ago(120_000), false, 'a');
    const session = s({ lastTurn: 'tool_result', lastTurnAt: ago(1_000), pendingTools: [agent], recentTools: [agent, tool('Read', ago(100_000), true, 'b')] });
    expect(deriveActivity(session, T)).toBe('spawning');
  });

  it('no records, or unknown timestamps: idle', () => {
    expect(deriveActivity(s({}), T)).toBe('idle');
    expect(deriveActivity(s({ lastTurn: 'user', lastTurnAt: 0 }), T)).toBe('idle');
  });
});

describe('resolveActivity: compaction', () => {
  it('shows compacting for 30 s after the start', () => {
    expect(deriveActivity(s({ compactionStartedAt: ago(29_000), lastTurn: 'assistant', lastTurnAt: ago(60_000) }), T)).toBe('compacting');
    expect(deriveActivity(s({ compactionStartedAt: ago(30_000), lastTurn: 'assistant', lastTurnAt: ago(60_000) }), T)).toBe('waiting');
  });

  it('stops at its end record', () => {
    expect(deriveActivity(s({ compactionStartedAt: ago(12_000), compactionEndedAt: ago(5_000), lastTurn: 'user', lastTurnAt: ago(4_000) }), T)).toBe('thinking');
  });

  it('an end at the same moment as the start ends it (kimi begin/end pair)', () => {
    expect(deriveActivity(s({ compactionStartedAt: ago(12_000), compactionEndedAt: ago(12_000), lastTurn: 'user', lastTurnAt: ago(11_000) }), T)).toBe('thinking');
  });

  it('a claude compaction (boundary + compact summary, no end) reads compacting for 30 s', () => {
    const claude = s({ compactionStartedAt: ago(12_000), lastTurn: 'user', lastTurnAt: ago(11_000) });
    expect(deriveActivity(claude, T)).toBe('compacting');
    expect(deriveActivity(claude, T + 17_999)).toBe('compacting');
    expect(deriveActivity(claude, T + 18_000)).toBe('thinking');
  });

  it('stops when the agent moves on (an answer or a tool call after the start)', () => {
    const pending = tool('Read', ago(2_000), false);
    expect(deriveActivity(s({ compactionStartedAt: ago(10_000), lastTurn: 'tool_call', lastTurnAt: ago(2_000), pendingTools: [pending], recentTools: [pending] }), T)).toBe('reading');
    expect(deriveActivity(s({ compactionStartedAt: ago(10_000), lastTurn: 'user', lastTurnAt: ago(9_000) }), T)).toBe('compacting');
  });
});
