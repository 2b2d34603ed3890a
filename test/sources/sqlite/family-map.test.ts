import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { mapFamilySession, type FamilyMessageRow, type FamilyPartRow, type FamilySessionRow } from '../../../src/sources/sqlite/opencode-family/map.js';

/**
 * The message/part schemas keep only the fields the replay reads (a tool input's file name, not
 * the whole input): every input shape must still give the call, the file when one is named, and a
 * diagnostic (not a crash, not a silent skip) for an input that is not an object.
 */
const spec = { agent: 'opencode', dbPath: '/db', resumeCommand: (id: string) => `opencode -s ${id}` } as const;
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
