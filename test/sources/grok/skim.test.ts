import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseGrokLine } from '../../../src/sources/grok/parse.js';
import { skimGrokLine } from '../../../src/sources/grok/skim.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/grok/', import.meta.url));

const chatFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return chatFiles(full);
    return entry.name === 'chat_history.jsonl' ? [full] : [];
  });

/** Where the skim answers a line, it must give exactly the events of the full parse. */
const compare = (lines: readonly Buffer[]): number => {
  let skimmed = 0;
  for (const line of lines) {
    const fast = skimGrokLine(line, 's');
    if (fast === undefined) continue;
    skimmed += 1;
    const expected = parseGrokLine(line.toString('utf8'), 's');
    expect(expected.ok, line.toString('utf8')).toBe(true);
    if (expected.ok) expect(fast, line.toString('utf8')).toStrictEqual(expected.events);
  }
  return skimmed;
};

const output = 'FAIL "quoted" \\ back\\slash é 中 ,"tool_call_id":"fake"} '.repeat(50);

describe('grok skim', () => {
  it('gives the full parse result on every fixture line it answers', () => {
    const lines = chatFiles(FIXTURES).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line) => Buffer.from(line)),
    );
    expect(compare(lines)).toBeGreaterThan(2);
  });

  it('gives the full parse result on generated records and answers system, reasoning and tool results', () => {
    const records = [
      { type: 'system', content: output },
      { type: 'reasoning', content: null, status: 'completed' },
      { type: 'tool_result', content: output, tool_call_id: 'call-1' },
      { type: 'tool_result', content: [{ type: 'text', text: output }], tool_call_id: 'call-2' },
      { type: 'tool_result', content: output, tool_call_id: '' },
      { type: 'tool_result', content: { nested: { tool_call_id: 'inner' } }, tool_call_id: 'call-3' },
      { type: 'user', content: [{ type: 'text', text: `<user_query>${output}</user_query>` }] },
      { type: 'assistant', content: output, tool_calls: [{ id: 'c1', name: 'write', arguments: '{"path":"/a"}' }] },
    ];
    expect(compare(records.map((record) => Buffer.from(JSON.stringify(record))))).toBe(6);
  });

  it('leaves every other layout to the full parse', () => {
    const undecided = [
      '{"type": "tool_result", "content": "x", "tool_call_id": "c"}', // not compact
      '{"type":"tool_result","tool_call_id":"c","content":"x"}', // id not last
      '{"type":"tool_result","content":{"tool_call_id":"c"}}', // id of a nested object
      '{"type":"tool_result","content":"x","tool_call_id":"a\\"b"}', // escaped id
      '{"type":"tool_result","content":"x","tool_call_id":null}',
      '{"type":"hologram","content":"x"}', // unknown kinds are reported by the full parse
      '{"type":"system","content":"torn', // torn line
      '',
      'junk',
    ];
    for (const line of undecided) expect(skimGrokLine(Buffer.from(line), 's'), line).toBeUndefined();
  });
});
