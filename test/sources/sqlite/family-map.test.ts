import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { mapFamilySession, mapFamilyV2Session, type FamilyMessageRow, type FamilyPartRow, type FamilySessionRow } from '../../../src/sources/sqlite/opencode-family/map.js';
import { activityAt, foldSession } from './helpers.js';

/**
 * The message/part schemas keep only the fields the replay reads (a tool input's file name, not
 * the whole input): every input shape must still give the call, the file when one is named, and a
 * diagnostic (not a crash, not a silent skip) for an input that is not an object.
 */
const spec = { agent: 'opencode', label: 'OpenCode', dbPath: '/db', resumeCommand: (id: string) => `opencode -s ${id}` } as const;
const session: FamilySessionRow = { id: 's1', parent_id: null, directory: '/w', title: 't', version: '1', time_created: 1, time_updated: 2, time_compacting: null, model: null };
const message: FamilyMessageRow = { id: 'm1', time_created: 10, data: JSON.stringify({ role: 'assistant', time: { created: 10 }, extra: { deep: [1] } }) };
const part = (input: unknown): FamilyPartRow => ({
  id: 'p1',
  message_id: 'm1',
  time_created: 11,
  time_updated: 12,
  data: JSON.stringify({ type: 'tool', tool: 'edit', callID: 'c1', state: { status: 'running', input, output: 'x'.repeat(3000), time: { start: 11 } }, unknown: true }),
});

const callsAndProblems = (input: unknown): SessionEvent[] => mapFamilySession(spec, session, [message], [part(input)]).filter((e) => e.type === 'tool_call' || e.type === 'diagnostic');

describe('opencode/kilo tool inputs', () => {
  it.each([
    ['filePath', { filePath: '/w/a.ts', oldString: 'a', newString: 'b' }, '/w/a.ts'],
    ['file_path', { file_path: '/w/b.ts' }, '/w/b.ts'],
    ['path', { path: '/w/c.ts' }, '/w/c.ts'],
    ['a patch body', { patchText: '*** Begin Patch\n*** Update File: /w/d.ts\n' }, '/w/d.ts'],
    ['no file named', { command: 'ls' }, undefined],
    ['a null input', null, undefined],
  ])('%s', (_name, input, filePath) => {
    expect(callsAndProblems(input)).toStrictEqual([{ agent: 'opencode', sessionId: 's1', type: 'tool_call', at: 11, name: 'edit', callId: 'c1', filePath }]);
  });

  it.each([
    ['an array', ['/w/a.ts']],
    ['a string', '/w/a.ts'],
  ])('an input that is %s fails the part with a diagnostic', (_name, input) => {
    const events = callsAndProblems(input);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'diagnostic', code: 'E_SCHEMA', sessionId: 's1' });
  });
});

describe('opencode/kilo kinds of another version', () => {
  const row = (id: string, data: unknown): FamilyPartRow => ({ id, message_id: 'm1', time_created: 11, time_updated: 12, data: JSON.stringify(data) });
  const versioned: FamilySessionRow = { ...session, version: '1.18.31' };

  it('part types opencode 1.x writes (reasoning, step-start/finish, snapshot, patch, file, agent, subtask, retry) are known: no count', () => {
    const known = ['reasoning', 'step-start', 'step-finish', 'snapshot', 'patch', 'file', 'agent', 'subtask', 'retry'].map((type, i) => row(`k${i}`, { type }));
    expect(mapFamilySession(spec, versioned, [message], known).filter((e) => e.type === 'diagnostic')).toEqual([]);
  });

  it('a part type or message role it does not know counts once per session as unknown_record, with the session version', () => {
    const user: FamilyMessageRow = { id: 'm2', time_created: 20, data: JSON.stringify({ role: 'moderator', time: { created: 20 } }) };
    const events = mapFamilySession(spec, versioned, [message, user, { ...user, id: 'm3' }], [row('u1', { type: 'canvas' }), row('u2', { type: 'canvas' }), row('t1', { type: 'text', text: 'still read' })]);
    expect(events.filter((e) => e.type === 'diagnostic')).toEqual([
      expect.objectContaining({ code: 'E_UNKNOWN_RECORD', version: '1.18.31', path: '/db', message: expect.stringContaining('part type "canvas"') }),
      expect.objectContaining({ code: 'E_UNKNOWN_RECORD', version: '1.18.31', message: expect.stringContaining('message role "moderator"') }),
    ]);
    expect(events.some((e) => e.type === 'turn' && e.text === 'still read')).toBe(true);
  });
});

describe('opencode/kilo: when an answer is given', () => {
  const answerSession = (textTime: { start: number; end?: number }, messageData: object, partUpdated: number): SessionEvent[] => {
    const user: FamilyMessageRow = { id: 'm0', time_created: 1_000, data: JSON.stringify({ role: 'user', time: { created: 1_000 } }) };
    const assistant: FamilyMessageRow = { id: 'm1', time_created: 2_000, data: JSON.stringify({ role: 'assistant', time: { created: 2_000 }, ...messageData }) };
    const prompt: FamilyPartRow = { id: 'p0', message_id: 'm0', time_created: 1_000, time_updated: 1_000, data: JSON.stringify({ type: 'text', text: 'Explain the ledger' }) };
    const text: FamilyPartRow = { id: 'p1', message_id: 'm1', time_created: textTime.start, time_updated: partUpdated, data: JSON.stringify({ type: 'text', text: 'A long answer', time: textTime }) };
    return mapFamilySession(spec, session, [user, assistant], [prompt, text]);
  };

  it('a finished text is an answer when it ended (the waiting grace and the 2 minutes run from there), not when it started', () => {
    const events = answerSession({ start: 3_000, end: 180_000 }, { time: { created: 2_000, completed: 180_500 }, finish: 'stop' }, 180_000);
    expect(events.flatMap((e) => (e.type === 'turn' && e.role === 'assistant' ? [e.at] : []))).toEqual([180_000]);
    expect(activityAt(events, 's1', 180_000 + 60_000)).toBe('waiting');
    expect(activityAt(events, 's1', 180_000 + 119_000)).toBe('waiting');
    expect(activityAt(events, 's1', 180_000 + 121_000)).toBe('idle');
  });

  it('a text without an end of its own is given when its message completed', () => {
    const events = answerSession({ start: 3_000 }, { time: { created: 2_000, completed: 90_000 }, finish: 'stop' }, 90_000);
    expect(events.flatMap((e) => (e.type === 'turn' && e.role === 'assistant' ? [e.at] : []))).toEqual([90_000]);
    expect(activityAt(events, 's1', 90_000 + 60_000)).toBe('waiting');
  });

  it('a text still being written (no end, message not finished) is the model at work: thinking from its last update, not waiting', () => {
    const events = answerSession({ start: 3_000 }, {}, 60_000);
    expect(events.at(-1)).toMatchObject({ type: 'thinking', at: 60_000 });
    expect(activityAt(events, 's1', 60_000 + 20_000)).toBe('thinking');
    // The text is a message of the session already.
    expect(foldSession(events, 's1')?.recentMessages.map((m) => m.text)).toEqual(['Explain the ledger', 'A long answer']);
    expect(foldSession(events, 's1')?.lastActivityAt).toBe(60_000);
  });
});

describe('opencode 2.x: when an answer is given', () => {
  const v2 = (data: object, updated: number): SessionEvent[] =>
    mapFamilyV2Session(spec, session, [
      { id: 'u1', type: 'user', time_created: 1_000, time_updated: 1_000, data: JSON.stringify({ text: 'Explain the ledger', time: { created: 1_000 } }) },
      { id: 'a1', type: 'assistant', time_created: 2_000, time_updated: updated, data: JSON.stringify({ content: [{ type: 'text', id: 't1', text: 'A long answer' }], time: { created: 2_000 }, ...data }) },
    ]);

  it('the answer a message ends on is given when the message completed', () => {
    const events = v2({ finish: 'stop', time: { created: 2_000, completed: 95_000 } }, 95_000);
    expect(events.flatMap((e) => (e.type === 'turn' && e.role === 'assistant' ? [e.at] : []))).toEqual([95_000]);
    expect(activityAt(events, 's1', 95_000 + 100_000)).toBe('waiting');
  });

  it('an answer still being written is thinking from the row\'s last update', () => {
    const events = v2({}, 40_000);
    expect(events.at(-1)).toMatchObject({ type: 'thinking', at: 40_000 });
    expect(activityAt(events, 's1', 40_000 + 20_000)).toBe('thinking');
  });
});
