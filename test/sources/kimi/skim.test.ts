import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KIMI_START, parseKimiLine, type KimiLineResult, type KimiParseState } from '../../../src/sources/kimi/parse.js';
import { kimiParseBytes, skimKimiLine } from '../../../src/sources/kimi/skim.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/kimi/', import.meta.url));
const ref = { agent: 'kimi', sessionId: 's' } as const;

const wireFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return wireFiles(full);
    return entry.name === 'wire.jsonl' ? [full] : [];
  });

/** The full parse of a line, as the source runs it without the fast path. */
const full = (state: KimiParseState, line: Buffer): KimiLineResult => parseKimiLine(state, line.toString('utf8'), ref, '/w');

/** Every line through both paths: where the skim answers, it must answer exactly what the full parse does. */
const compare = (lines: readonly Buffer[]): number => {
  let state = KIMI_START;
  let skimmed = 0;
  for (const line of lines) {
    const expected = full(state, line);
    const fast = skimKimiLine(state, line, ref);
    if (fast !== undefined) {
      skimmed += 1;
      expect(fast, line.toString('utf8')).toStrictEqual(expected);
    }
    state = expected.state;
  }
  return skimmed;
};

const filler = 'a "quoted" \\ line\n with é and 中 and "time":5} inside '.repeat(40);

/**
 * Records as Kimi writes them (compact, `type` first, `time` last), with long prompts and outputs;
 * with `agentId`, as agent-core v2 writes them (the agent's id right after the type).
 */
const generated = (agentId?: string): Buffer[] => {
  const records: unknown[] = [{ type: 'metadata', protocol_version: '1.3', created_at: 1000, app_version: '0.11.0' }];
  for (let t = 0; t < 20; t++) {
    const at = 2000 + t * 10;
    records.push(
      { type: 'turn.prompt', input: [{ type: 'text', text: filler }], origin: { kind: 'user' }, time: at },
      { type: 'context.append_message', message: { role: 'user', content: [{ type: 'text', text: filler }] } },
      { type: 'context.append_loop_event', event: { type: 'step.begin', turnId: String(t), step: 1 }, time: at + 1 },
      { type: 'context.append_loop_event', event: { type: 'content.part', part: { type: 'think', think: filler } }, time: at + 2 },
      { type: 'context.append_loop_event', event: { type: 'tool.call', toolCallId: `tc_${t}`, name: 'Write', args: { file_path: `f${t}.ts`, content: filler } }, time: at + 3 },
      { type: 'context.append_loop_event', event: { type: 'tool.result', toolCallId: `tc_${t}`, result: { output: filler, time: 3 } }, time: at + 4 },
      { type: 'context.append_loop_event', event: { type: 'tool.result', toolCallId: '', result: { output: filler } }, time: at + 4 },
      { type: 'context.append_loop_event', event: { type: 'step.end', step: 1, finishReason: t % 2 ? 'tool_use' : 'end_turn' }, time: at + 5 },
      { type: 'usage.record', usage: { inputOther: 100, output: 50, inputCacheRead: 1000, inputCacheCreation: 0 }, time: at + 6 },
      { type: 'context.append_loop_event', event: { type: 'content.part', part: { type: 'text', text: filler } }, time: at + 7 },
      // An older time than the clock: the clock never goes back.
      { type: 'future.kind', payload: { time: 99999999 }, time: 5 },
      { type: 'turn.end', time: at + 8 },
    );
  }
  const laidOut = agentId === undefined ? records : records.map((record) => {
    const { type, ...rest } = record as { type: string };
    return { type, agentId, ...rest };
  });
  return laidOut.map((record) => Buffer.from(JSON.stringify(record)));
};

describe('kimi skim', () => {
  it('gives the full parse result on every fixture line it answers', () => {
    const files = wireFiles(FIXTURES);
    expect(files.length).toBeGreaterThan(1);
    let skimmed = 0;
    for (const file of files) {
      const text = readFileSync(file);
      const lines: Buffer[] = [];
      for (let from = 0; from < text.length; ) {
        const nl = text.indexOf(0x0a, from);
        if (nl === -1) break;
        lines.push(text.subarray(from, nl));
        from = nl + 1;
      }
      skimmed += compare(lines);
    }
    expect(skimmed).toBeGreaterThan(3);
  });

  it('gives the full parse result on generated records and answers the carry-nothing kinds and tool results', () => {
    const lines = generated();
    // Per turn: turn.prompt, step.begin, the think part and two tool results. The future kind is
    // left to the full parse, which counts it as unknown_record.
    expect(compare(lines)).toBe(20 * 5);
  });

  it('answers agent-core v2 lines too (their agentId comes before the event)', () => {
    const lines = generated('main');
    expect(lines[3]?.toString('utf8')).toMatch(/^\{"type":"context\.append_loop_event","agentId":"main","event":\{"type":"step\.begin"/);
    expect(compare(lines)).toBe(20 * 5);
  });

  it('leaves every other layout to the full parse', () => {
    const undecided = [
      '{"type": "turn.prompt", "time": 5}', // not compact
      '{"time":5,"type":"turn.prompt"}', // time not last
      '{"type":"turn.prompt","input":{"time":5}}', // time of a nested object
      '{"type":"turn.prompt","time":05}', // not a JSON number
      '{"type":"turn.prompt","time":5.5}', // not an integer time
      '{"type":"usage.record","usage":{},"time":5}', // a record that carries something
      '{"type":"context.append_loop_event","event":{"type":"tool.call","name":"Write"},"time":5}',
      '{"type":"context.append_loop_event","event":{"type":"tool.result","toolCallId":"a\\"b"},"time":5}', // escaped id
      '{"type":"context.append_loop_event","agentId":"m\\"x","event":{"type":"step.begin"},"time":5}', // escaped agent id
      '{"type":"context.append_loop_event","agentId":"main" ,"event":{"type":"step.begin"},"time":5}', // not compact
      '',
      'not json',
    ];
    for (const line of undecided) expect(skimKimiLine(KIMI_START, Buffer.from(line), ref), line).toBeUndefined();
  });
});

describe('kimi tool calls with long arguments', () => {
  const parse = (line: Buffer): KimiLineResult => parseKimiLine(KIMI_START, line.toString('utf8'), ref, '/w');
  const big = 'package main // "quoted" \\ é 中\n'.repeat(300);

  it('are read with their long strings cut, giving the same events', () => {
    const lines = [
      { type: 'context.append_loop_event', event: { type: 'tool.call', toolCallId: 'tc_1', name: 'Write', args: { file_path: 'a/b.go', content: big } }, time: 7 },
      { type: 'context.append_loop_event', event: { type: 'tool.call', toolCallId: 'tc_2', name: 'StrReplaceFile', args: { path: '/abs/c.go', old: big, new: big } }, time: 8 },
      { type: 'context.append_loop_event', event: { type: 'tool.call', toolCallId: 'tc_3', name: 'Shell', args: { command: big } }, time: 9 },
      { type: 'context.append_loop_event', agentId: 'main', event: { type: 'tool.call', toolCallId: 'tc_6', name: 'Write', args: { file_path: 'd.go', content: big } }, time: 10 },
    ].map((record) => Buffer.from(JSON.stringify(record)));
    for (const line of lines) {
      const cut = kimiParseBytes(line);
      expect(cut.length).toBeLessThan(line.length / 2);
      expect(parse(cut)).toStrictEqual(parse(line));
    }
  });

  it('are read whole when the arguments are a string or the record is small', () => {
    const asString = Buffer.from(JSON.stringify({ type: 'context.append_loop_event', event: { type: 'tool.call', toolCallId: 'tc_4', name: 'Write', args: JSON.stringify({ file_path: 'x.go', content: big }) }, time: 9 }));
    const small = Buffer.from(JSON.stringify({ type: 'context.append_loop_event', event: { type: 'tool.call', toolCallId: 'tc_5', name: 'Write', args: { file_path: 'y.go' } }, time: 9 }));
    const legacy = Buffer.from(JSON.stringify({ type: 'context.append_message', message: { role: 'assistant', content: big, toolCalls: [{ id: 't', function: { name: 'WriteFile', arguments: JSON.stringify({ path: 'z', content: big }) } }] } }));
    for (const line of [asString, small, legacy]) expect(kimiParseBytes(line)).toBe(line);
    expect(parse(asString)).toMatchObject({ ok: true, events: [{ type: 'tool_call', filePath: '/w/x.go' }] });
  });
});
