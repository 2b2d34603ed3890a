import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { KIMI_START, parseKimiLine } from '../../../src/sources/kimi/parse.js';
import { deriveActivity } from '../../../src/streams/activity.js';
import { foldEvents } from '../../helpers/source-harness.js';

/** Records in (wire.jsonl lines), activity out: the kimi inputs of the state machine (docs/formats/kimi.md). */
const T = 1_773_136_300_000;
const loop = (event: Record<string, unknown>, at: number) => JSON.stringify({ type: 'context.append_loop_event', event, time: at });
const userMsg = (text: string, at: number) => JSON.stringify({ type: 'context.append_message', message: { role: 'user', content: text }, time: at });

const activityAt = (lines: readonly string[], now: number) => {
  let state = KIMI_START;
  const events: SessionEvent[] = [];
  for (const line of lines) {
    const r = parseKimiLine(state, line, { agent: 'kimi', sessionId: 'k' });
    state = r.state;
    if (r.ok) events.push(...r.events);
  }
  return deriveActivity(foldEvents(events)!, now);
};

describe('kimi activity inputs', () => {
  it('compaction.begin reads compacting until compaction.end', () => {
    const begun = [userMsg('go', T), loop({ type: 'compaction.begin' }, T + 1_000)];
    expect(activityAt(begun, T + 5_000)).toBe('compacting');
    // A compaction that took 11 s: over once its end record is written.
    expect(activityAt([...begun, loop({ type: 'compaction.end' }, T + 12_000)], T + 14_000)).toBe('thinking');
  });

  it.each([
    ['Write', 'writing'],
    ['StrReplaceFile', 'writing'],
    ['ReadFile', 'reading'],
    ['Shell', 'running'],
    ['Grep', 'searching'],
    ['FetchURL', 'browsing'],
    ['Agent', 'spawning'],
  ])('a pending native %s call reads %s', (name, activity) => {
    expect(activityAt([userMsg('go', T), loop({ type: 'tool.call', toolCallId: 't', name, args: {} }, T + 1_000)], T + 5_000)).toBe(activity);
  });

  it('a sub-agent call keeps spawning for minutes; its result and step.end(stop) end in waiting', () => {
    const spawn = [userMsg('go', T), loop({ type: 'tool.call', toolCallId: 't', name: 'Agent', args: {} }, T + 1_000)];
    expect(activityAt(spawn, T + 5 * 60_000)).toBe('spawning');
    const done = [...spawn, loop({ type: 'tool.result', toolCallId: 't' }, T + 2_000), loop({ type: 'step.end', finishReason: 'stop' }, T + 3_000)];
    expect(activityAt(done, T + 20_000)).toBe('waiting');
  });

  it('step.end for tool use does not answer (the finished tool still shows); turn.cancel ends the turn', () => {
    const step = [userMsg('go', T), loop({ type: 'tool.call', toolCallId: 't', name: 'Bash' }, T + 1_000), loop({ type: 'tool.result', toolCallId: 't' }, T + 1_500), loop({ type: 'step.end', finishReason: 'tool_use' }, T + 1_600)];
    expect(activityAt(step, T + 20_000)).toBe('running');
    expect(activityAt(step, T + 31_200)).toBe('thinking');
    expect(activityAt([...step, JSON.stringify({ type: 'turn.cancel', time: T + 2_000 })], T + 20_000)).toBe('waiting');
  });

  it('legacy embedded tool calls: pending WriteFile reads writing, its role:tool result thinking', () => {
    const legacy = [
      userMsg('go', T),
      JSON.stringify({ type: 'context.append_message', message: { role: 'assistant', content: [], toolCalls: [{ type: 'function', id: 'x', function: { name: 'WriteFile', arguments: '{}' } }] }, time: T + 1_000 }),
    ];
    expect(activityAt(legacy, T + 5_000)).toBe('writing');
    const answered = [...legacy, JSON.stringify({ type: 'context.append_message', message: { role: 'tool', content: 'ok', toolCallId: 'x' }, time: T + 2_000 })];
    // 30.5 s after the call the tool no longer paints; 29.5 s after its result the model is still thinking.
    expect(activityAt(answered, T + 31_500)).toBe('thinking');
  });
});
