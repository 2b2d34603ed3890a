import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { desktopPatch } from '../../../src/sources/claude/desktop.js';
import { createClaudeParser } from '../../../src/sources/claude/parse.js';
import { claudeBaseDirs, claudeDesktopDir, classifyClaudeFile } from '../../../src/sources/claude/paths.js';
import type { SessionEvent } from '../../../src/core/session.js';
import { estimateCost, usageCost, usageCostSource } from '../../../src/streams/cost.js';
import { emptySession } from '../../../src/streams/empty-session.js';
import { diagnosticsOf, FIXTURES, foldById, parseFile } from '../../helpers/source-harness.js';

const SID = '6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10';
const PROJECTS = path.join(FIXTURES, 'claude/.claude/projects');
const MAIN = path.join(PROJECTS, '-home-dev-acme-api', `${SID}.jsonl`);

describe('claude parser (pure: fixture lines in, events out)', () => {
  it('folds the main transcript into the session a user would expect', async () => {
    const events = await parseFile(createClaudeParser(MAIN, { kind: 'main', sessionId: SID }, false), MAIN);
    const state = foldById(events).get(SID);
    expect(state).toMatchObject({
      cwd: '/home/dev/acme-api',
      version: '2.0.31',
      gitBranch: 'feat/ratelimit',
      model: 'claude-sonnet-4-5-20250929',
      // custom-title (a /rename) beats the earlier summary title; summary never means compaction.
      agentName: 'Rate limiter work',
      resumeCommand: `claude --resume ${SID}`,
      path: MAIN,
      isSidechain: false,
      // Prompts only: tool results, the compact summary and isMeta lines do not count.
      userMessages: 2,
      // msg_01Hq7 was written over two lines: one message.
      assistantMessages: 3,
      lastFileWrite: '/home/dev/acme-api/server.go',
      lastFileWriteAt: Date.parse('2026-03-10T09:15:11.402Z'),
      compactionStartedAt: Date.parse('2026-03-10T10:40:00.000Z'),
      // compact_boundary is written once compacting is done; the compact summary after it is its
      // product, not an end signal: the display window decides (30 s or until the agent moves on).
      compactionEndedAt: 0,
      lastTurn: 'user',
      createdAt: Date.parse('2026-03-10T09:14:58.004Z'),
      pendingTools: [],
    });
    // The split response counts once with its final figures (71 output, not 3 + 71).
    expect(state?.tokens).toEqual({ input: 9 + 6 + 4, output: 71 + 143 + 19, cacheCreation: 4210 + 120 + 310, cacheRead: 11873 + 16083 + 16203 });
    expect(state?.recentMessages.map((m) => m.text)).toEqual([
      'Add a token-bucket rate limiter to server.go',
      'Added a 10 req/s token bucket in server.go.',
      'Now add a test for the bucket',
    ]);
    expect(diagnosticsOf(events).map((d) => d.code)).toEqual(['E_JUNK_LINE', 'E_SCHEMA']);
  });

  it('matches tool results to their calls by id', async () => {
    const events = await parseFile(createClaudeParser(MAIN, { kind: 'main', sessionId: SID }, false), MAIN);
    expect(events.filter((e) => e.type === 'tool_call').map((e) => e.type === 'tool_call' && [e.name, e.callId])).toEqual([
      ['Read', 'toolu_01Read'],
      ['Edit', 'toolu_01Edit'],
    ]);
    expect(events.filter((e) => e.type === 'tool_result').map((e) => e.type === 'tool_result' && e.callId)).toEqual(['toolu_01Read', 'toolu_01Edit']);
  });

  it('marks old agent-*.jsonl and subagents/ transcripts as sidechains with their parent', async () => {
    const legacy = path.join(PROJECTS, '-home-dev-acme-api', 'agent-3f9a1c2e.jsonl');
    const legacyState = foldById(await parseFile(createClaudeParser(legacy, { kind: 'legacy-agent', sessionId: 'agent-3f9a1c2e' }, false), legacy)).get('agent-3f9a1c2e');
    expect(legacyState).toMatchObject({ isSidechain: true, resumeCommand: '', lastTurn: 'tool_call', model: 'claude-haiku-4-5' });

    const sub = path.join(PROJECTS, '-home-dev-acme-api', SID, 'subagents', 'agent-a1b2c3d4e5f6.jsonl');
    const kind = classifyClaudeFile(PROJECTS, sub);
    expect(kind).toEqual({ kind: 'subagent', sessionId: 'agent-a1b2c3d4e5f6', parentId: SID });
    const subState = foldById(await parseFile(createClaudeParser(sub, kind!, false), sub)).get('agent-a1b2c3d4e5f6');
    expect(subState).toMatchObject({ isSidechain: true, parentId: SID, assistantMessages: 1 });
  });

  it('classifies only transcripts at the documented depths', () => {
    expect(classifyClaudeFile(PROJECTS, path.join(PROJECTS, 'p', 'x.jsonl'))).toEqual({ kind: 'main', sessionId: 'x' });
    // A workflow's agents (2.1.154+) are sub-agents of the session, one run folder deeper; the run's journal is not a transcript.
    const run = path.join(PROJECTS, 'p', 's', 'subagents', 'workflows', 'wf_01');
    expect(classifyClaudeFile(PROJECTS, path.join(run, 'agent-9f8e.jsonl'))).toEqual({ kind: 'subagent', sessionId: 'agent-9f8e', parentId: 's' });
    expect(classifyClaudeFile(PROJECTS, path.join(run, 'journal.jsonl'))).toBeUndefined();
    expect(classifyClaudeFile(PROJECTS, path.join(PROJECTS, 'p', 's', 'subagents', 'other', 'wf_01', 'agent-9f8e.jsonl'))).toBeUndefined();
    expect(classifyClaudeFile(PROJECTS, path.join(PROJECTS, 'p', 'x.json'))).toBeUndefined();
    expect(classifyClaudeFile(PROJECTS, path.join(PROJECTS, 'p', 's', 'tool-results', 'x.jsonl'))).toBeUndefined();
    expect(classifyClaudeFile(PROJECTS, path.join(PROJECTS, 'x.jsonl'))).toBeUndefined();
  });

  it('a branch (/branch) counts only its own messages and spend: the lines it copied carry forkedFrom', () => {
    const BRANCH = '7e2a0d1f-3c8b-4a6e-9f10-2b3c4d5e6f70';
    const parser = createClaudeParser(`/p/${BRANCH}.jsonl`, { kind: 'main', sessionId: BRANCH }, false);
    const copied = { forkedFrom: { sessionId: SID, messageUuid: 'u1' } };
    const lines = [
      { type: 'user', uuid: 'u1', sessionId: BRANCH, timestamp: '2026-11-20T10:00:00.000Z', message: { role: 'user', content: 'add rate limiting' }, ...copied },
      {
        type: 'assistant',
        uuid: 'u2',
        sessionId: BRANCH,
        timestamp: '2026-11-20T10:00:20.000Z',
        message: { id: 'msg_parent', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Added a token bucket.' }], usage: { input_tokens: 9000, output_tokens: 700 } },
        forkedFrom: { sessionId: SID, messageUuid: 'u2' },
      },
      { type: 'user', uuid: 'u3', sessionId: BRANCH, timestamp: '2026-11-21T09:00:00.000Z', message: { role: 'user', content: 'try a sliding window instead' } },
      {
        type: 'assistant',
        uuid: 'u4',
        sessionId: BRANCH,
        timestamp: '2026-11-21T09:00:30.000Z',
        message: { id: 'msg_branch', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Switched to a sliding window.' }], usage: { input_tokens: 1200, output_tokens: 300 } },
      },
    ];
    const events = [...parser.start(), ...lines.flatMap((line) => parser.line(Buffer.from(JSON.stringify(line))))];
    const state = foldById(events).get(BRANCH);
    expect(state?.tokens).toEqual({ input: 1200, output: 300, cacheCreation: 0, cacheRead: 0 });
    expect(state?.userMessages).toBe(1);
    expect(state?.assistantMessages).toBe(1);
    expect(state?.lastTurn).toBe('assistant');
    expect(state?.recentMessages.map((m) => m.text)).toContain('Switched to a sliding window.');
  });

  it('counts the advisor\'s calls (usage.iterations advisor_message), which the turn\'s own counters leave out, once per response', () => {
    const parser = createClaudeParser('/p/s.jsonl', { kind: 'main', sessionId: 's' }, false);
    const usage = {
      input_tokens: 2,
      output_tokens: 491,
      cache_creation_input_tokens: 7853,
      cache_read_input_tokens: 226584,
      iterations: [
        { type: 'message', input_tokens: 1, output_tokens: 45, cache_read_input_tokens: 109696, cache_creation_input_tokens: 7192 },
        { type: 'advisor_message', model: 'claude-opus-4-7', input_tokens: 159419, output_tokens: 7805, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
        { type: 'fallback_message', input_tokens: 900, output_tokens: 0 },
        { type: 'message', input_tokens: 1, output_tokens: 446, cache_read_input_tokens: 116888, cache_creation_input_tokens: 661 },
      ],
    };
    // One response written as two lines (a text block, then a tool call), each with the same usage.
    const line = (content: object[]) =>
      JSON.stringify({ type: 'assistant', timestamp: '2026-11-20T10:00:00.000Z', advisorModel: 'claude-opus-4-7', message: { id: 'msg_adv', role: 'assistant', model: 'claude-sonnet-4-6', content, usage } });
    const events = [
      ...parser.start(),
      ...parser.line(Buffer.from(line([{ type: 'text', text: 'Asked the advisor; going with plan B.' }]))),
      ...parser.line(Buffer.from(line([{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/w/a.ts' } }]))),
    ];
    expect(foldById(events).get('s')?.tokens).toEqual({ input: 2 + 159419, output: 491 + 7805, cacheCreation: 7853, cacheRead: 226584 });
    // Iterations of another shape add nothing.
    const odd = createClaudeParser('/p/t.jsonl', { kind: 'main', sessionId: 't' }, false);
    const oddLine = JSON.stringify({ type: 'assistant', message: { id: 'msg_x', role: 'assistant', content: 'ok', usage: { input_tokens: 5, iterations: 'n/a' } } });
    expect(foldById([...odd.start(), ...odd.line(Buffer.from(oddLine))]).get('t')?.tokens).toEqual({ input: 5, output: 0, cacheCreation: 0, cacheRead: 0 });
  });

  it('user lines Claude Code writes itself (promptSource system, a background task\'s notification) are not prompts', () => {
    const parser = createClaudeParser('/p.jsonl', { kind: 'main', sessionId: 's' }, true);
    const user = (extra: object, content: string) =>
      parser.line(Buffer.from(JSON.stringify({ type: 'user', timestamp: '2026-11-20T10:00:00.000Z', message: { role: 'user', content }, ...extra })));
    const turnOf = (events: readonly SessionEvent[]) => events.find((e) => e.type === 'turn');
    expect(turnOf(user({ promptSource: 'system' }, 'Continue from where you left off.'))).toMatchObject({ role: 'user', counts: false });
    expect(turnOf(user({}, '<task-notification>\n<task-id>b1</task-id>\n<status>completed</status>\n</task-notification>'))).toMatchObject({ counts: false });
    expect(turnOf(user({ promptSource: 'typed' }, 'fix the flaky test'))).not.toHaveProperty('counts');
    expect(turnOf(user({ promptSource: 42 }, 'fix the flaky test'))).not.toHaveProperty('counts');
  });

  it('skips bulky record types silently and counts an unknown type once per file, with the version that wrote it', () => {
    const parser = createClaudeParser('/p.jsonl', { kind: 'main', sessionId: 's' }, true);
    expect(parser.line(Buffer.from('{"type":"bridge-session","sessionId":"s","bridgeSessionId":"b"}'))).toEqual([]);
    expect(parser.line(Buffer.from('{"type":"agent-setting","agentSetting":"reviewer"}'))).toEqual([]);
    expect(parser.line(Buffer.from('{"type":"progress","data":{"type":"hook"}}'))).toEqual([]);
    expect(parser.line(Buffer.from('{"type":"queue-operation","operation":"enqueue"}'))).toEqual([]);
    expect(parser.line(Buffer.from('{"type":"something-new","version":"2.3.0","x":1}'))).toEqual([
      {
        type: 'diagnostic',
        agent: 'claude',
        sessionId: 's',
        path: '/p.jsonl',
        code: 'E_UNKNOWN_RECORD',
        message: 'record type "something-new" is not known to this version of agentwatch (written by Claude Code 2.3.0); skipped',
        version: '2.3.0',
      },
    ]);
    expect(parser.line(Buffer.from('{"type":"something-new","version":"2.3.0","x":2}'))).toEqual([]);
    expect(parser.line(Buffer.from('   '))).toEqual([]);
  });

  it('a thinking-only line is not an answer but is activity: a thinking event, then the answer is the turn', () => {
    const parser = createClaudeParser('/p.jsonl', { kind: 'main', sessionId: 's' }, true);
    const line = (content: unknown[]): Buffer =>
      Buffer.from(JSON.stringify({ type: 'assistant', timestamp: '2026-03-10T09:00:00Z', message: { id: 'm1', model: 'm', content, usage: { input_tokens: 1, output_tokens: 2 } } }));
    const thinking = parser.line(line([{ type: 'thinking', thinking: 'hmm', signature: 'x' }]));
    expect(thinking.map((e) => e.type)).toEqual(['meta', 'thinking', 'usage']);
    expect(thinking.find((e) => e.type === 'thinking')).toEqual({ type: 'thinking', agent: 'claude', sessionId: 's', at: Date.parse('2026-03-10T09:00:00Z') });
    const answer = parser.line(line([{ type: 'text', text: 'Done.' }]));
    expect(answer.filter((e) => e.type === 'turn')).toEqual([{ type: 'turn', agent: 'claude', sessionId: 's', at: Date.parse('2026-03-10T09:00:00Z'), role: 'assistant', text: 'Done.' }]);
  });

  it('keeps the first cwd across a warm start: a resumed parser is seeded from the restored state', () => {
    const restored = { ...emptySession('claude', 's'), cwd: '/home/dev/first', model: 'claude-sonnet-4-5', createdAt: Date.parse('2026-03-10T08:00:00Z') };
    const parser = createClaudeParser('/p.jsonl', { kind: 'main', sessionId: 's' }, true, restored);
    const line = { type: 'user', cwd: '/home/dev/first/sub', message: { role: 'user', content: 'hi' }, timestamp: '2026-03-10T09:00:00Z' };
    expect(parser.line(Buffer.from(JSON.stringify(line))).filter((e) => e.type === 'meta')).toEqual([]);
  });

  it('records costUSD of old transcripts and ignores the <synthetic> model', () => {
    const parser = createClaudeParser('/p.jsonl', { kind: 'main', sessionId: 's' }, true);
    const line = { type: 'assistant', costUSD: 0.25, timestamp: '2026-03-10T09:00:00Z', message: { id: 'm1', model: '<synthetic>', content: [{ type: 'text', text: 'API Error' }] } };
    const events = parser.line(Buffer.from(JSON.stringify(line)));
    expect(events.some((e) => e.type === 'meta')).toBe(false);
    expect(events.find((e) => e.type === 'usage')).toMatchObject({ costUsd: 0.25, messageId: 'm1' });
  });
});

describe('claude paths', () => {
  const env = { HOME: '/h' };
  it('uses claude_dirs alone when configured, else CLAUDE_CONFIG_DIR plus ~/.claude, else ~/.claude', () => {
    expect(claudeBaseDirs({ claude_dirs: ['/a', '~/b'] }, { ...env, CLAUDE_CONFIG_DIR: '/c' })).toEqual(['/a', '/h/b']);
    expect(claudeBaseDirs({ claude_dirs: [] }, { ...env, CLAUDE_CONFIG_DIR: '/c' })).toEqual(['/c', '/h/.claude']);
    expect(claudeBaseDirs({ claude_dirs: [] }, { ...env, CLAUDE_CONFIG_DIR: '/h/.claude/' })).toEqual(['/h/.claude']);
    expect(claudeBaseDirs({ claude_dirs: [] }, env)).toEqual(['/h/.claude']);
  });

  it('looks for Desktop sidecars on macOS only', () => {
    expect(claudeDesktopDir(env, 'linux')).toBeUndefined();
    expect(claudeDesktopDir(env, 'darwin')).toBe('/h/Library/Application Support/Claude/claude-code-sessions');
    expect(desktopPatch({ cliSessionId: SID, title: 'T', createdAt: 5 })).toEqual([SID, { source: 'desktop', agentName: 'T', createdAt: 5 }]);
    expect(desktopPatch({ sessionId: 'local_x' })).toBeUndefined();
  });
});

describe('claude sidechain flag (read from the record head, not from its tool output)', () => {
  const output = 'x'.repeat(4096);
  const results = (line: object): string[] => {
    const parser = createClaudeParser('/p.jsonl', { kind: 'main', sessionId: 's' }, true);
    return parser
      .line(Buffer.from(JSON.stringify(line)))
      .filter((e) => e.type === 'tool_result')
      .map((e) => (e.type === 'tool_result' ? e.callId ?? '' : ''));
  };
  const toolResult = (isSidechain: boolean | undefined, nested: object) => ({
    parentUuid: 'p',
    ...(isSidechain === undefined ? {} : { isSidechain }),
    type: 'user',
    message: { role: 'user', content: [{ tool_use_id: 'toolu_1', type: 'tool_result', content: output }] },
    uuid: 'u',
    timestamp: '2026-03-10T09:00:00Z',
    toolUseResult: nested,
  });

  it('a main line whose output nests an isSidechain:true key still counts its tool results', () => {
    expect(results(toolResult(false, { agent: { isSidechain: true } }))).toEqual(['toolu_1']);
  });

  it('an inline sub-agent line (isSidechain:true among its first keys) adds no tool results to the main session', () => {
    expect(results(toolResult(true, {}))).toEqual([]);
  });

  it('without the key in the head, a raw isSidechain:true anywhere still marks the line', () => {
    expect(results({ ...toolResult(undefined, {}), padding: 'y'.repeat(2048), isSidechain: true })).toEqual([]);
    expect(results(toolResult(undefined, {}))).toEqual(['toolu_1']);
  });
});

describe('a session that changed models (2.1.x)', () => {
  it('prices each model its own tokens; a response written over two lines counts once, at its model', async () => {
    const file = path.join(FIXTURES, 'claude/versions/2.1.12-model-switch.jsonl');
    const id = '5d1e7a20-0000-4000-8000-00000000e500';
    const state = foldById(await parseFile(createClaudeParser(file, { kind: 'main', sessionId: id }, false), file)).get(id);
    const opus = { input: 10, output: 400, cacheCreation: 20000, cacheRead: 0 };
    const sonnet = { input: 30, output: 800, cacheCreation: 5000, cacheRead: 20000 };
    expect(state?.model).toBe('claude-sonnet-4-5-20250929');
    expect(state?.tokens).toEqual({ input: 40, output: 1200, cacheCreation: 25000, cacheRead: 20000 });
    const expected = estimateCost('claude-opus-4-5-20251101', opus)! + estimateCost('claude-sonnet-4-5-20250929', sonnet)!;
    expect(usageCost(state!)).toBeCloseTo(expected, 9);
    // Every token at the last model's rates would be less: Opus costs more than Sonnet.
    expect(estimateCost('claude-sonnet-4-5-20250929', state!.tokens)!).toBeLessThan(expected - 0.05);
    expect(usageCostSource(state!)).toBe('price-table');
  });
});
