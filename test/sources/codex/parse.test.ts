import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCodexParser, patchTarget } from '../../../src/sources/codex/parse.js';
import { codexHome, codexIdFromFile } from '../../../src/sources/codex/paths.js';
import { parseThreadNames } from '../../../src/sources/codex/thread-names.js';
import { diagnosticsOf, FIXTURES, foldById, parseFile } from '../../helpers/source-harness.js';

const CID = '0199d2a4-7c31-7e02-b5a9-4f1e2d3c4b5a';
const SUB = '0199d2a5-0000-7000-8000-00000000beef';
const DAY = path.join(FIXTURES, 'codex/.codex/sessions/2026/03/10');
const MAIN = path.join(DAY, `rollout-2026-03-10T09-20-11-${CID}.jsonl`);

describe('codex parser (pure)', () => {
  it('folds a rollout: id from session_meta, context, messages, tools, totals, compaction', async () => {
    const parser = createCodexParser(MAIN, 'provisional', false);
    const events = await parseFile(parser, MAIN);
    expect(parser.sessionId()).toBe(CID);
    const state = foldById(events).get(CID);
    expect(state).toMatchObject({
      cwd: '/home/dev/billing',
      model: 'gpt-5.2-codex',
      gitBranch: 'main',
      version: '0.116.0',
      resumeCommand: `codex resume ${CID}`,
      createdAt: Date.parse('2026-03-10T09:20:11.398Z'),
      // The injected <environment_context> is a turn but not a message; event_msg duplicates are not counted.
      userMessages: 1,
      assistantMessages: 1,
      // Latest apply_patch (function_call form) names its file from the patch header.
      lastFileWrite: '/home/dev/billing/internal/invoice/money_test.go',
      lastTurn: 'tool_call',
      compactionStartedAt: Date.parse('2026-03-10T09:40:00.100Z'),
      isSidechain: false,
    });
    // Cumulative totals replace, cached input is split out of input, reasoning stays inside output.
    expect(state?.tokens).toEqual({ input: 15000 - 12000, output: 700, cacheCreation: 0, cacheRead: 12000 });
    expect(events.filter((e) => e.type === 'tool_call').map((e) => e.type === 'tool_call' && [e.name, e.callId, e.filePath])).toEqual([
      ['exec_command', 'call_Qx81', undefined],
      ['apply_patch', 'call_Pt02', '/home/dev/billing/internal/invoice/money.go'],
      ['apply_patch', 'call_Pt03', '/home/dev/billing/internal/invoice/money_test.go'],
    ]);
    expect(events.filter((e) => e.type === 'tool_result').map((e) => e.type === 'tool_result' && e.callId)).toEqual(['call_Qx81', 'call_Pt02']);
    expect(diagnosticsOf(events).map((d) => d.code)).toEqual(['E_JUNK_LINE']);
    expect(events.some((e) => e.type !== 'diagnostic' && e.type !== 'ready' && e.type !== 'progress' && e.sessionId === 'provisional')).toBe(false);
  });

  it('marks sub-agent rollouts (agent_nickname / source.subagent) as sidechains of their parent thread', async () => {
    const file = path.join(DAY, `rollout-2026-03-10T09-25-00-${SUB}.jsonl`);
    const state = foldById(await parseFile(createCodexParser(file, SUB, false), file)).get(SUB);
    expect(state).toMatchObject({ isSidechain: true, parentId: CID, userMessages: 1 });
  });

  it('reads thread names with the newest line winning and junk ignored', () => {
    const names = parseThreadNames('{"id":"a","thread_name":"old"}\nnot json\n{"id":"a","thread_name":"new"}\n{"id":"b","thread_name":"  "}\n');
    expect([...names]).toEqual([['a', { agentName: 'new' }]]);
  });

  it('finds the written file in freeform and JSON-escaped patches', () => {
    expect(patchTarget('*** Begin Patch\n*** Update File: a/b.go\n@@\n*** End Patch')).toBe('a/b.go');
    expect(patchTarget('{"input":"*** Begin Patch\\n*** Add File: c.txt\\n+x\\n*** End Patch\\n"}')).toBe('c.txt');
    expect(patchTarget('echo hi')).toBeUndefined();
  });

  it('takes the rollout id from the file name and honours CODEX_HOME', () => {
    expect(codexIdFromFile(MAIN)).toBe(CID);
    expect(codexIdFromFile('/x/other.jsonl')).toBe('other');
    expect(codexIdFromFile('/x/other.json')).toBeUndefined();
    expect(codexHome({ HOME: '/h' })).toBe('/h/.codex');
    expect(codexHome({ HOME: '/h', CODEX_HOME: '/c' })).toBe('/c');
  });

  it('skips reasoning and unused event_msg lines unparsed, and a huge compacted record by its timestamp', () => {
    const parser = createCodexParser('/r.jsonl', CID, true);
    expect(parser.line(Buffer.from('{"timestamp":"2026-03-10T09:20:15.000Z","type":"response_item","payload":{"type":"reasoning","x":'))).toEqual([]);
    expect(parser.line(Buffer.from('{"timestamp":"2026-03-10T09:20:15.000Z","type":"event_msg","payload":{"type":"agent_reasoning_delta"'))).toEqual([]);
    const compacted = `{"timestamp":"2026-03-10T09:40:00.000Z","type":"compacted","payload":{"message":"${'x'.repeat(100_000)}"}}`;
    expect(parser.line(Buffer.from(compacted))).toEqual([{ type: 'compaction', agent: 'codex', sessionId: CID, at: Date.parse('2026-03-10T09:40:00.000Z'), phase: 'start' }]);
  });
});
