import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FileParser } from '../../src/sources/internal/file-parser.js';
import { createClaudeParser } from '../../src/sources/claude/parse.js';
import { createCodexParser } from '../../src/sources/codex/parse.js';
import { createPiParser } from '../../src/sources/pi/parse.js';
import { diagnosticsOf, foldById, parseFile } from '../helpers/source-harness.js';

/** A record whose timestamp is there but no date is counted (doctor lists it), and still read. */
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const replay = async (name: string, lines: readonly string[], parserOf: (file: string) => FileParser) => {
  dir ??= await mkdtemp(path.join(tmpdir(), 'agentwatch-undated-'));
  const file = path.join(dir, name);
  await writeFile(file, `${lines.join('\n')}\n`);
  return parseFile(parserOf(file), file);
};

const undated = (value: string) => ({ code: 'E_SCHEMA', message: `timestamp ${JSON.stringify(value)} is not a date; the record is read without a time` });

describe('records whose timestamp is no date', () => {
  it('claude: one E_SCHEMA per such record; the record still counts', async () => {
    const id = 'b1111111-1111-4111-8111-111111111111';
    const events = await replay(`${id}.jsonl`, [
      JSON.stringify({ type: 'user', timestamp: '2026-11-20T10:00:00Z', cwd: '/w', sessionId: id, uuid: 'u1', message: { role: 'user', content: 'hello' } }),
      JSON.stringify({ type: 'assistant', timestamp: 'not a date', cwd: '/w', sessionId: id, uuid: 'u2', message: { id: 'm1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'hi' }], usage: { input_tokens: 10, output_tokens: 5 } } }),
      JSON.stringify({ type: 'ai-title', sessionId: id, aiTitle: 'greeting' }),
    ], (file) => createClaudeParser(file, { kind: 'main', sessionId: id }, false));
    expect(diagnosticsOf(events)).toEqual([expect.objectContaining(undated('not a date'))]);
    expect(foldById(events).get(id)).toMatchObject({ assistantMessages: 1, tokens: expect.objectContaining({ output: 5 }) });
  });

  it('codex: the same for a rollout record', async () => {
    const id = '019c0000-1111-7222-8333-944455556666';
    const events = await replay(`rollout-2026-08-01T10-00-00-${id}.jsonl`, [
      `{"timestamp":"2026-08-01T10:00:00.000Z","type":"session_meta","payload":{"id":"${id}","cwd":"/w","originator":"codex_cli_rs","cli_version":"0.148.0","source":"cli"}}`,
      '{"timestamp":"yesterday","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"review this"}]}}',
    ], (file) => createCodexParser(file, 'p', false));
    expect(diagnosticsOf(events)).toEqual([expect.objectContaining(undated('yesterday'))]);
    expect(foldById(events).get(id)?.userMessages).toBe(1);
  });

  it('pi: the same for an entry', async () => {
    const id = '2026-03-10T09-30-00-123Z_1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d';
    const events = await replay(`${id}.jsonl`, [
      '{"type":"session","version":3,"id":"1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d","timestamp":"2026-03-10T09:30:00.123Z","cwd":"/w"}',
      '{"type":"message","id":"c2d3e4f5","parentId":null,"timestamp":"13/03/2026","message":{"role":"user","content":[{"type":"text","text":"rename it"}]}}',
    ], (file) => createPiParser(file, { kind: 'main', sessionId: id }, false));
    expect(diagnosticsOf(events)).toEqual([expect.objectContaining(undated('13/03/2026'))]);
    expect(foldById(events).get(id)?.userMessages).toBe(1);
  });

  it('a record without a timestamp, or with a valid one, raises nothing', async () => {
    const id = 'c2222222-2222-4222-8222-222222222222';
    const events = await replay(`${id}.jsonl`, [
      JSON.stringify({ type: 'user', timestamp: '2026-11-20T10:00:00Z', cwd: '/w', sessionId: id, uuid: 'u1', message: { role: 'user', content: 'hello' } }),
      JSON.stringify({ type: 'custom-title', sessionId: id, customTitle: 'mine' }),
    ], (file) => createClaudeParser(file, { kind: 'main', sessionId: id }, false));
    expect(diagnosticsOf(events)).toEqual([]);
  });
});
