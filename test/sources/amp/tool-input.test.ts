import { describe, expect, it } from 'vitest';
import { parseAmpThread } from '../../../src/sources/amp/parse.js';

/**
 * The message and block schemas read only the fields agentwatch uses (a tool input's file name,
 * not its contents): every shape of `input` must still give the call, with a path only when the
 * input names one as a string.
 */
const T0 = 1_773_134_400_000;
const callWith = (input: unknown, extra: Record<string, unknown> = {}) => ({
  role: 'assistant',
  messageId: 1,
  content: [{ type: 'tool_use', id: 'u1', name: 'edit_file', input, startTime: T0 + 1, ...extra }, { type: 'thinking', thinking: 'x'.repeat(100) }],
  state: { type: 'complete', stopReason: 'tool_use', extra: true },
  meta: { sentAt: T0 },
  unknownField: { deep: [1, 2] },
});

const callsOf = (input: unknown, extra?: Record<string, unknown>) => {
  const parsed = parseAmpThread(JSON.stringify({ id: 'T-a', created: T0, messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }, callWith(input, extra)] }), '/t.json');
  if (parsed.kind !== 'thread') throw new Error(parsed.kind);
  return parsed.events.filter((e) => e.type === 'tool_call');
};

describe('amp tool inputs', () => {
  it.each([
    ['path', { path: 'file:///w/a.ts', old_str: 'a', new_str: 'b' }, '/w/a.ts'],
    ['file_path', { file_path: '/w/b.ts', content: 'x'.repeat(5000) }, '/w/b.ts'],
    ['path wins over file_path', { path: '/w/c.ts', file_path: '/w/d.ts' }, '/w/c.ts'],
    ['a numeric path', { path: 42 }, undefined],
    ['an empty path', { path: '' }, undefined],
    ['no input', undefined, undefined],
    ['an array input', ['/w/e.ts'], undefined],
    ['a string input', '/w/f.ts', undefined],
    ['a null input', null, undefined],
  ])('%s', (_name, input, filePath) => {
    const calls = callsOf(input);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toStrictEqual({ agent: 'amp', sessionId: 'T-a', type: 'tool_call', at: T0 + 1, name: 'edit_file', callId: 'u1', ...(filePath ? { filePath } : {}) });
  });

  it('a bad start time is ignored, not fatal', () => {
    expect(callsOf({ path: '/w/a.ts' }, { startTime: 'soon' })).toStrictEqual([{ agent: 'amp', sessionId: 'T-a', type: 'tool_call', at: T0, name: 'edit_file', callId: 'u1', filePath: '/w/a.ts' }]);
  });
});
