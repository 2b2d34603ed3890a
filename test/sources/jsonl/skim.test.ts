import { describe, expect, it } from 'vitest';
import { createClaudeParser } from '../../../src/sources/claude/parse.js';
import { skimToolResults } from '../../../src/sources/claude/line-skim.js';
import { createCodexParser } from '../../../src/sources/codex/parse.js';
import { createPiParser } from '../../../src/sources/pi/parse.js';
import { elideLongStrings, jsonKey, skimString, valueKey } from '../../../src/sources/internal/skim.js';

const big = (n: number): string => 'line "quoted" \\ back\\slash \u00e9\u4e2d\n'.repeat(n);

describe('elideLongStrings', () => {
  it('keeps the structure and short strings, cuts long strings to a valid prefix', () => {
    const record = { a: big(200), b: 'short', c: [big(100), 1, true, null, { d: 'x' }], e: { f: '\\u0041'.repeat(500) } };
    const out = JSON.parse(elideLongStrings(Buffer.from(JSON.stringify(record)), 256).toString('utf8')) as typeof record;
    expect(out.b).toBe('short');
    expect(out.c.slice(1)).toEqual([1, true, null, { d: 'x' }]);
    expect(record.a.startsWith(out.a.replace(/\uFFFD+$/, ''))).toBe(true);
    expect(out.a.length).toBeGreaterThan(100);
    expect(out.e.f.length).toBeLessThanOrEqual(256);
  });

  it('returns the line itself when nothing is long', () => {
    const line = Buffer.from('{"a":"b"}');
    expect(elideLongStrings(line, 16)).toBe(line);
  });
});

describe('fast paths give the same events as a full parse', () => {
  it('claude tool results: ids, error flags and the record timestamp', () => {
    const record = {
      type: 'user',
      message: {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_A', content: big(300) },
          { type: 'tool_result', tool_use_id: 'toolu_B', content: [{ type: 'text', text: big(10) }], is_error: true },
        ],
      },
      toolUseResult: { stdout: big(50), interrupted: false },
      timestamp: '2026-03-10T09:15:05.990Z',
    };
    const line = Buffer.from(JSON.stringify(record));
    expect(skimToolResults(line)).toEqual({
      at: Date.parse('2026-03-10T09:15:05.990Z'),
      results: [
        { callId: 'toolu_A', isError: false },
        { callId: 'toolu_B', isError: true },
      ],
    });
    const fast = createClaudeParser('/f.jsonl', { kind: 'main', sessionId: 's' }, true).line(line);
    const small = Buffer.from(JSON.stringify({ ...record, toolUseResult: undefined, message: { role: 'user', content: record.message.content.map((b) => ({ ...b, content: 'x' })) } }));
    expect(fast).toEqual(createClaudeParser('/f.jsonl', { kind: 'main', sessionId: 's' }, true).line(small));
  });

  it('codex and pi tool outputs', () => {
    const codexLine = (output: string): Buffer =>
      Buffer.from(JSON.stringify({ timestamp: '2026-03-10T09:20:18.102Z', type: 'response_item', payload: { type: 'function_call_output', call_id: 'call_Q', output } }));
    const codex = (): ReturnType<typeof createCodexParser> => createCodexParser('/r.jsonl', 'c', true);
    expect(codex().line(codexLine(big(100)))).toEqual(codex().line(codexLine('ok')));

    const piLine = (text: string): Buffer =>
      Buffer.from(
        JSON.stringify({
          type: 'message',
          id: 'e4',
          timestamp: '2026-03-10T09:30:07.300Z',
          message: { role: 'toolResult', toolCallId: 'toolu_P', toolName: 'bash', content: [{ type: 'text', text }], isError: true, timestamp: 1773135007300 },
        }),
      );
    const pi = (): ReturnType<typeof createPiParser> => createPiParser('/p.jsonl', { kind: 'main', sessionId: 'p' }, true);
    expect(pi().line(piLine(big(100)))).toEqual(pi().line(piLine('ok')));
  });

  it('skimString refuses escaped values so callers fall back to parsing', () => {
    expect(skimString(Buffer.from('{"id":"a\\"b"}'), jsonKey('id'))).toBeUndefined();
    expect(skimString(Buffer.from('{"id":"ab","x":{"id":"cd"}}'), jsonKey('id'), { last: true })?.value).toBe('cd');
  });

  it('a long prompt parsed through elision keeps its whole text (the search index needs every word)', () => {
    const prompt = `Please ${'refactor the parser '.repeat(300)}`;
    const line = Buffer.from(JSON.stringify({ type: 'user', message: { role: 'user', content: prompt }, timestamp: '2026-03-10T09:00:00Z' }));
    const [turn] = createClaudeParser('/f.jsonl', { kind: 'main', sessionId: 's' }, true).line(line);
    expect(turn).toMatchObject({ type: 'turn', role: 'user', text: prompt });
  });

  it('a long answer keeps its text whole while its tool input is cut', () => {
    const answer = `Done ${'the parser is refactored '.repeat(200)}`;
    const file = 'x'.repeat(50_000);
    const record = { type: 'assistant', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: answer }, { type: 'tool_use', id: 't1', name: 'Write', input: { file_path: '/a.ts', content: file } }] }, timestamp: '2026-03-10T09:00:00Z' };
    const elided = elideLongStrings(Buffer.from(JSON.stringify(record)), 1024, [valueKey('text')]).toString('utf8');
    expect(elided).toContain(answer);
    expect(elided.length).toBeLessThan(answer.length + 2_000);
    const [turn] = createClaudeParser('/f.jsonl', { kind: 'main', sessionId: 's' }, true).line(Buffer.from(JSON.stringify(record)));
    expect(turn).toMatchObject({ type: 'turn', role: 'assistant', text: answer });
  });
});
