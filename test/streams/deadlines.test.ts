import { describe, expect, it } from 'vitest';
import type { SessionState, ToolUse } from '../../src/core/session.js';
import { resolveActivity } from '../../src/streams/activity.js';
import { nextChangeAt as nextActivityChangeAt } from '../../src/streams/activity.js';
import { ACTIVITY_TIMEOUT_MS, COMPACTION_TIMEOUT_MS, SPAWNING_TIMEOUT_MS, THINKING_TIMEOUT_MS, WAITING_GRACE_MS, WAITING_TIMEOUT_MS } from '../../src/streams/constants.js';
import { emptySession } from '../../src/streams/empty-session.js';

/**
 * The deadline contract, checked exhaustively on random sessions: between `now` and the deadline
 * the activity (and the tool that decides it) never changes, so re-deriving a session only at
 * its deadline or on its events shows the same as re-deriving it every millisecond would.
 */
const T0 = Date.UTC(2026, 2, 10, 9, 0, 0);

/** A small deterministic PRNG (mulberry32), so a failure is reproducible from its seed. */
const prng = (seed: number): (() => number) => {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

const TOOLS = ['Read', 'Bash', 'Edit', 'Grep', 'WebFetch', 'Task', 'mcp__x', 'apply_patch'];
const TURNS: SessionState['lastTurn'][] = ['none', 'user', 'assistant', 'tool_call', 'tool_result', 'thinking'];

const randomSession = (random: () => number): SessionState => {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const ago = (): number => T0 - Math.floor(random() * 200_000);
  const tool = (): ToolUse => ({ name: pick(TOOLS), at: ago(), done: random() < 0.5, callId: String(Math.floor(random() * 5)) });
  const pendingTools = random() < 0.5 ? [tool()] : [];
  const recentTools = random() < 0.7 ? [tool(), tool()] : [];
  const compactionStartedAt = random() < 0.3 ? ago() : 0;
  return {
    ...emptySession('claude', 's'),
    lastTurn: pick(TURNS),
    lastTurnAt: random() < 0.9 ? ago() : 0,
    lastActivityAt: ago(),
    pendingTools,
    recentTools,
    compactionStartedAt,
    compactionEndedAt: compactionStartedAt > 0 && random() < 0.3 ? compactionStartedAt + Math.floor(random() * 40_000) : 0,
  };
};

describe('nextActivityChangeAt', () => {
  it('the activity is constant from now until the deadline (2,000 random sessions, every second and the last millisecond)', () => {
    const random = prng(20261124);
    for (let n = 0; n < 2_000; n += 1) {
      const s = randomSession(random);
      const now = T0 - Math.floor(random() * 30_000);
      const deadline = nextActivityChangeAt(s, now);
      const first = resolveActivity(s, now);
      const end = Math.min(deadline, now + 1_300_000);
      // Every whole second up to the deadline, its last millisecond, and both sides of every instant
      // at which any window of the state machine could end (record time + a constant): the
      // activity is a step function of time with steps only there, so this covers every instant.
      const limits = [ACTIVITY_TIMEOUT_MS, COMPACTION_TIMEOUT_MS, SPAWNING_TIMEOUT_MS, THINKING_TIMEOUT_MS, WAITING_GRACE_MS, WAITING_TIMEOUT_MS];
      const stamps = [s.lastTurnAt, s.compactionStartedAt, s.compactionEndedAt, ...s.pendingTools.map((t) => t.at), ...s.recentTools.map((t) => t.at)];
      const edges = stamps.flatMap((at) => limits.flatMap((limit) => [at + limit - 1, at + limit])).filter((t) => t >= now && t < end);
      const probes = [...Array.from({ length: Math.ceil((end - now) / 1_000) }, (_, i) => now + i * 1_000), end - 1, ...edges];
      const changed = probes.find((t) => {
        const at = resolveActivity(s, t);
        return at.activity !== first.activity || at.tool !== first.tool;
      });
      expect(changed, `session ${n}: changed at +${(changed ?? 0) - now} ms, deadline +${deadline - now}`).toBeUndefined();
    }
  });

  it('is Infinity once time alone can change nothing', () => {
    const idle = { ...emptySession('claude', 's'), lastTurn: 'assistant' as const, lastTurnAt: T0 - 3_600_000, lastActivityAt: T0 - 3_600_000 };
    expect(nextActivityChangeAt(idle, T0)).toBe(Number.POSITIVE_INFINITY);
  });

  it('names the grace end and then the waiting end after an answer', () => {
    const answered = { ...emptySession('claude', 's'), lastTurn: 'assistant' as const, lastTurnAt: T0, lastActivityAt: T0 };
    expect(nextActivityChangeAt(answered, T0)).toBe(T0 + 10_000);
    expect(nextActivityChangeAt(answered, T0 + 10_000)).toBe(T0 + 30_000);
    expect(nextActivityChangeAt(answered, T0 + 30_000)).toBe(T0 + 120_000);
  });
});
