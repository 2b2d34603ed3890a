import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/core/session.js';
import { initialFrame, stepFrame } from '../../src/streams/frames.js';

const NOW = Date.UTC(2026, 2, 10, 12);
const ref = (sessionId: string) => ({ agent: 'claude', sessionId }) as const;
const prompt = (sessionId: string, at: number): SessionEvent => ({ ...ref(sessionId), type: 'turn', role: 'user', at, text: 'go' });

describe('stepFrame around the first discovery pass', () => {
  it('derives no activities before ready, every session on the ready frame, then only what changed', () => {
    let frame = initialFrame(['claude', 'codex'], NOW);
    frame = stepFrame(frame, { events: [prompt('a', NOW - 1_000), prompt('b', NOW - 3_600_000)], now: NOW });
    frame = stepFrame(frame, { events: [{ type: 'ready', agent: 'claude' }], now: NOW });
    expect(frame.state.ready).toBe(false);
    expect(frame.activities.size).toBe(0);
    expect(frame.transitions).toEqual([]);

    // The frame that turns ready: every session at once, and still no transitions (history is not news).
    frame = stepFrame(frame, { events: [{ type: 'ready', agent: 'codex' }], now: NOW });
    expect(frame.state.ready).toBe(true);
    expect([...frame.activities.keys()].sort()).toEqual(['claude:a', 'claude:b']);
    expect(frame.activities.get('claude:a')).toBe('thinking');
    expect(frame.activities.get('claude:b')).toBe('idle');
    expect(frame.transitions).toEqual([]);

    // After ready a change is announced against the activity derived on the ready frame.
    frame = stepFrame(frame, { events: [{ ...ref('b'), type: 'tool_call', at: NOW + 10, name: 'Bash', callId: 'c1' }], now: NOW + 20 });
    expect(frame.transitions).toEqual([expect.objectContaining({ sessionId: 'b', from: 'idle', to: frame.activities.get('claude:b') })]);
    expect(frame.activities.get('claude:b')).not.toBe('idle');
  });
});
