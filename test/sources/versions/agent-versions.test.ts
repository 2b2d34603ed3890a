import { cp, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SessionDetail, SessionEvent, SessionState } from '../../../src/core/session.js';
import { createAmpSource } from '../../../src/sources/amp/index.js';
import { parseAmpThread } from '../../../src/sources/amp/parse.js';
import { createClaudeParser } from '../../../src/sources/claude/parse.js';
import { createCodexParser } from '../../../src/sources/codex/parse.js';
import { mapCursorComposer, type BubbleRecord } from '../../../src/sources/cursor/map.js';
import type { Composer } from '../../../src/sources/cursor/schema.js';
import { createPiParser } from '../../../src/sources/pi/parse.js';
import { kimi } from '../../../src/sources/kimi/index.js';
import { KIMI_START, parseKimiLine, type KimiParseState } from '../../../src/sources/kimi/parse.js';
import { initialFoldState, reduceSessions } from '../../../src/streams/sessions-reducer.js';
import { toDetail } from '../../../src/streams/views.js';
import { diagnosticsOf, useFixtureHome } from '../../helpers/source-harness.js';

/**
 * Newer (and older) agent versions than the wave-1 fixtures: record types, field shapes and
 * names each version really writes (fixtures written for these tests from the formats' structure).
 * Known record types that carry nothing are skipped without a count; unknown ones are counted
 * once per file as unknown_record with the version that wrote them, and never stop the reading.
 */
const fixture = (path: string): string => fileURLToPath(new URL(`../../../fixtures/${path}`, import.meta.url));

const foldAll = (events: readonly SessionEvent[]): SessionState[] => [...reduceSessions(initialFoldState([]), events).state.sessions.values()];

const linesOf = async (file: string): Promise<string[]> => (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '');

describe('Claude Code 2.1.230: ai-title, compact_boundary as a record type, 2.1.x bookkeeping records', () => {
  const file = fixture('claude/versions/2.1.230-ai-title-compact-boundary.jsonl');
  const sessionId = '7c2e9d41-5b3a-4e8f-9a10-2d4c6b8e0f13';
  const replay = async (count?: number): Promise<{ events: SessionEvent[]; at: (iso: string) => SessionDetail }> => {
    const parser = createClaudeParser(file, { kind: 'main', sessionId }, false);
    const lines = (await linesOf(file)).slice(0, count);
    const events = [...parser.start(), ...lines.flatMap((line) => parser.line(Buffer.from(line)))];
    const [state] = foldAll(events);
    if (!state) throw new Error('no session');
    return { events, at: (iso) => toDetail(state, { now: Date.parse(iso) }) };
  };

  it('the generated title names the session, the newest one winning', async () => {
    expect((await replay(4)).at('2026-06-02T09:01:00Z').agent_name).toBe('Retry uploads on 503');
    expect((await replay()).at('2026-06-02T09:06:00Z').agent_name).toBe('Retry uploads on 503 with backoff');
  });

  it('a user rename (custom-title) beats any later generated title', async () => {
    const parser = createClaudeParser(file, { kind: 'main', sessionId }, false);
    const lines = await linesOf(file);
    const renamed = [...lines.slice(0, 3), `{"type":"custom-title","customTitle":"uploader","sessionId":"${sessionId}"}`, ...lines.slice(3)];
    const [state] = foldAll([...parser.start(), ...renamed.flatMap((line) => parser.line(Buffer.from(line)))]);
    expect(state?.agentName).toBe('uploader');
  });

  it('a top-level compact_boundary record is a compaction', async () => {
    const { at } = await replay();
    expect(at('2026-06-02T09:05:25Z').activity).toBe('compacting');
  });

  it('bookkeeping records are known (no count); an unknown record type and block type count once each, with the version', async () => {
    const { events, at } = await replay();
    expect(diagnosticsOf(events)).toEqual([
      expect.objectContaining({ code: 'E_UNKNOWN_RECORD', version: '2.1.230', message: expect.stringContaining('record type "future-record"') }),
      expect.objectContaining({ code: 'E_UNKNOWN_RECORD', version: '2.1.230', message: expect.stringContaining('content block "future_block"') }),
    ]);
    // The rest of the line with the unknown block is still read.
    expect(at('2026-06-02T09:01:00Z')).toMatchObject({ assistant_messages: 2, output_tokens: 37, version: '2.1.230' });
  });
});

describe('Codex 0.154 (paginated history): prompts, their item_completed mirrors and what Codex injects', () => {
  it('counts the one prompt once; AGENTS.md, skill, plugin list and Stop-hook messages are not prompts; known records raise nothing', async () => {
    const file = fixture('codex/versions/0.154-paginated.jsonl');
    const parser = createCodexParser(file, 'p', false);
    const events = (await linesOf(file)).flatMap((line) => parser.line(Buffer.from(line)));
    const [state] = foldAll(events);
    expect(toDetail(state as SessionState, { now: Date.parse('2026-09-18T09:31:50Z') })).toMatchObject({
      session_id: '019e2c10-5d3a-7b21-9c44-1f2e3d4c5b6a',
      version: '0.154.0',
      source: 'cli',
      user_messages: 1,
      assistant_messages: 1,
      input_tokens: 3000,
      cache_read_tokens: 9000,
      git_branch: 'main',
    });
    expect(state?.isSidechain).toBe(false);
    expect(diagnosticsOf(events)).toEqual([]);
  });
});

describe('Codex 0.14x: threads nobody started by hand', () => {
  const meta = (extra: string): string =>
    `{"timestamp":"2026-08-01T10:00:00.000Z","type":"session_meta","payload":{"id":"019c0000-1111-7222-8333-944455556666","cwd":"/w","originator":"codex_cli_rs","cli_version":"0.148.0","source":"cli"${extra}}}`;
  const prompt = '{"timestamp":"2026-08-01T10:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"review this"}]}}';
  const fold = (...lines: string[]): SessionState | undefined => {
    const parser = createCodexParser('/r.jsonl', 'p', false);
    return foldAll(lines.flatMap((line) => parser.line(Buffer.from(line))))[0];
  };

  it('thread_source subagent or guardian_review is a hidden sub-agent thread; user is a session', () => {
    expect(fold(meta(',"thread_source":"subagent"'), prompt)?.isSidechain).toBe(true);
    expect(fold(meta(',"thread_source":"guardian_review"'), prompt)?.isSidechain).toBe(true);
    expect(fold(meta(',"thread_source":"user"'), prompt)?.isSidechain).toBe(false);
  });

  it('session_state, the paginated-thread record types and rollout_reference (a segment pointing at the one before it) are known: no unknown_record', () => {
    const parser = createCodexParser('/r.jsonl', 'p', false);
    const events = [
      meta(''),
      '{"timestamp":"2026-08-01T10:00:00.500Z","type":"session_state","payload":{"model":"gpt-5.5"}}',
      '{"timestamp":"2026-08-01T10:00:00.600Z","type":"world_state","payload":{"agents_md":"..."}}',
      '{"timestamp":"2026-08-01T10:00:00.700Z","type":"token_usage_record","payload":{"usage":{}}}',
      '{"timestamp":"2026-08-01T10:00:00.800Z","type":"rollout_reference","payload":{"rollout_path":"/h/.codex/sessions/2026/08/01/rollout-2026-08-01T09-00-00-019c0000-1111-7222-8333-944455556666.jsonl","thread_id":"019c0000-1111-7222-8333-944455556666","segment_id":"019c0000-2222-7222-8333-944455556666","max_depth":8}}',
      prompt,
    ].flatMap((line) => parser.line(Buffer.from(line)));
    expect(diagnosticsOf(events)).toEqual([]);
  });
});

describe('Codex multi-agent: messages between agents (agent_message, inter_agent_communication), wait_agent', () => {
  const replay = async (name: string, count?: number): Promise<{ events: SessionEvent[]; at: (iso: string) => SessionDetail }> => {
    const file = fixture(`codex/versions/${name}`);
    const parser = createCodexParser(file, 'p', false);
    const events = (await linesOf(file)).slice(0, count).flatMap((line) => parser.line(Buffer.from(line)));
    const [state] = foldAll(events);
    if (!state) throw new Error('no session');
    return { events, at: (iso) => toDetail(state, { now: Date.parse(iso) }) };
  };

  it('a worker given its task by another agent works on it (thinking), though no person wrote it', async () => {
    const given = await replay('multi-agent-v2-worker.jsonl', 4);
    expect(given.at('2026-11-20T10:00:05Z')).toMatchObject({ activity: 'thinking', user_messages: 0, is_active: true });
    const all = await replay('multi-agent-v2-worker.jsonl');
    // A message that does not trigger a turn (trigger_turn false) is only queued: the worker still
    // waits after its answer; agent_response_observation is a known record.
    expect(all.at('2026-11-20T10:01:05Z')).toMatchObject({ activity: 'waiting', user_messages: 0, assistant_messages: 1 });
    expect(diagnosticsOf(all.events)).toEqual([]);
  });

  it('a parent waiting in wait_agent shows spawning past 30 s; a child\'s triggering message (older record form) wakes it', async () => {
    const waiting = await replay('multi-agent-parent.jsonl', 6);
    expect(waiting.at('2026-11-20T10:01:30Z')).toMatchObject({ activity: 'spawning', current_tool: 'wait_agent' });
    const all = await replay('multi-agent-parent.jsonl');
    expect(all.at('2026-11-20T10:05:05Z')).toMatchObject({ activity: 'thinking', user_messages: 1 });
    expect(diagnosticsOf(all.events)).toEqual([]);
  });
});

describe('Kimi Code wire 1.5 (agent-core-v2): turn.ended, full_compaction, flat tool calls, state.json v2', () => {
  const fx = useFixtureHome('agentwatch-kimi15-', async (home) => cp(fixture('kimi/versions/1.5-turn-ended'), home.home, { recursive: true }));
  const T = 1785600000000;
  const id = 'session_0f3c2a6e-8d41-4b7a-9e25-7c1d3b5a9f08';

  const session = async (): Promise<{ state: SessionState; events: SessionEvent[] }> => {
    const run = await fx.once(kimi);
    const state = run.sessions().get(id);
    if (!state) throw new Error('session not found');
    return { state, events: run.events };
  };

  it('reads cwd, title and version from the wire and state.json v2 (no index entry needed)', async () => {
    const { state } = await session();
    expect(state).toMatchObject({ cwd: '/home/dev/uploader', agentName: 'Uploader retry', version: '1.5', model: 'kimi-code/kimi-for-coding' });
    // The last write: the imported WriteFile call's relative path, joined to the wire's own cwd.
    expect(state.lastFileWrite).toBe('/home/dev/uploader/NOTES.md');
  });

  const wire = fixture(`kimi/versions/1.5-turn-ended/.kimi-code/sessions/wd_uploader_3fa2c19e0b7d/${id}/agents/main/wire.jsonl`);
  const replayLines = (lines: readonly string[]): SessionState => {
    const ref = { agent: 'kimi', sessionId: id } as const;
    let clock: KimiParseState = KIMI_START;
    const events: SessionEvent[] = [];
    for (const line of lines) {
      const result = parseKimiLine(clock, line, ref);
      clock = result.state;
      if (result.ok) events.push(...result.events);
    }
    const [state] = foldAll(events);
    if (!state) throw new Error('no session');
    return state;
  };

  it('full_compaction.begin is compacting until full_compaction.complete', async () => {
    const lines = await linesOf(wire);
    const begun = replayLines(lines.slice(0, 19));
    expect(toDetail(begun, { now: T + 61_000 }).activity).toBe('compacting');
    const done = replayLines(lines.slice(0, 21));
    expect(toDetail(done, { now: T + 64_500 }).activity).not.toBe('compacting');
  });

  it('turn.ended closes a turn cut short in a tool call: waiting, not still running', () => {
    const state = replayLines([
      `{"type":"context.append_message","agentId":"main","message":{"role":"user","content":[{"type":"text","text":"run the tests"}],"toolCalls":[]},"time":${T}}`,
      `{"type":"context.append_loop_event","agentId":"main","event":{"type":"tool.call","stepUuid":"s1","toolCallId":"tc_9","name":"Bash","args":{"command":"go test ./..."}},"time":${T + 1_000}}`,
      `{"type":"turn.ended","agentId":"main","turnId":0,"reason":"cancelled","time":${T + 2_000}}`,
    ]);
    expect(toDetail(state, { now: T + 20_000 }).activity).toBe('waiting');
  });

  it('an embedded tool call in the flat 1.1+ shape is a tool call, not a schema error', async () => {
    const { state, events } = await session();
    expect(state.recentTools.map((t) => t.name)).toEqual(['Write', 'WriteFile']);
    expect(diagnosticsOf(events).filter((d) => d.code === 'E_SCHEMA')).toEqual([]);
  });

  it('unknown record types and loop events count once each, with the wire version and line', async () => {
    const { events } = await session();
    expect(diagnosticsOf(events).filter((d) => d.code === 'E_UNKNOWN_RECORD')).toEqual([
      expect.objectContaining({ version: '1.5', line: 16, message: expect.stringContaining('wire record type "session.handoff"') }),
      expect.objectContaining({ version: '1.5', line: 18, message: expect.stringContaining('loop event "step.reflect"') }),
    ]);
  });
});

describe('Amp 0.0.1785170481 (thread export document): apply_patch writes, 1-based message ids, a block type it does not know', () => {
  const file = fixture('amp/versions/0.0.1785170481-export.json');
  const parse = async (edit: (doc: Record<string, unknown>) => void = () => undefined) => {
    const doc = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    edit(doc);
    const result = parseAmpThread(JSON.stringify(doc), file);
    if (result.kind !== 'thread') throw new Error(`not a thread: ${result.kind}`);
    const [state] = foldAll(result.events);
    if (!state) throw new Error('no session');
    return { result, state, at: (iso: string) => toDetail(state, { now: Date.parse(iso) }) };
  };

  it('reads the session: percent-decoded cwd, version, model, tokens once per message, the answer last', async () => {
    const { at } = await parse();
    expect(at('2026-07-27T18:35:30Z')).toMatchObject({
      cwd: '/home/dev/up loader',
      version: '0.0.1785170481-ga5b614',
      model: 'gpt-5.6-sol',
      agent_name: 'Retry flaky upload',
      activity: 'waiting',
      last_activity: '2026-07-27T18:35:02.000Z',
      user_messages: 1,
      assistant_messages: 3,
      input_tokens: 900 + 300 + 150,
      output_tokens: 120 + 210 + 40,
      cache_read_tokens: 11000 + 11900 + 12200,
    });
  });

  it('apply_patch (its only write tool) names the written file, joined to the cwd', async () => {
    const { at } = await parse();
    expect(at('2026-07-27T18:35:30Z')).toMatchObject({ last_file_write: '/home/dev/up loader/upload.go', last_file_write_at: '2026-07-27T18:34:30.000Z' });
  });

  it('a block type it does not know is named once for the unknown_record count, with the thread version; the message is still read', async () => {
    const { result } = await parse();
    expect(result.version).toBe('0.0.1785170481-ga5b614');
    expect(result.unknown).toEqual([{ key: 'block:future_card', what: 'content block "future_card"' }]);
  });

  it('a tree uri written as an object ({fsPath}) still gives the cwd', async () => {
    const { state } = await parse((doc) => {
      const env = doc.env as { initial: { trees: { uri: unknown }[] } };
      env.initial.trees[0] = { uri: { fsPath: '/home/dev/editor-tree', scheme: 'file' } };
    });
    expect(state.cwd).toBe('/home/dev/editor-tree');
  });
});

describe('Amp source on a thread export of 0.0.1785170481', () => {
  const fx = useFixtureHome('agentwatch-amp1785-', async (home) => {
    const threads = path.join(home.home, '.local', 'share', 'amp', 'threads');
    await mkdir(threads, { recursive: true });
    await cp(fixture('amp/versions/0.0.1785170481-export.json'), path.join(threads, 'T-019fa4db-29cf-70c9-8d9b-81524df70e52.json'));
  });

  it('counts the unknown block type as unknown_record with the thread file and version, and lists the session', async () => {
    const run = await fx.once(createAmpSource({ exportSync: false }));
    expect(run.sessions().get('T-019fa4db-29cf-70c9-8d9b-81524df70e52')?.lastFileWrite).toBe('/home/dev/up loader/upload.go');
    expect(run.diagnostics()).toEqual([
      expect.objectContaining({
        code: 'E_UNKNOWN_RECORD',
        version: '0.0.1785170481-ga5b614',
        path: path.join(fx.home.home, '.local', 'share', 'amp', 'threads', 'T-019fa4db-29cf-70c9-8d9b-81524df70e52.json'),
      }),
    ]);
  });
});

describe('pi 0.58 (session format 3): every entry type and message role it writes, and kinds it does not', () => {
  const name = '2026-03-15T10-00-00-000Z_4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f6a7b8';
  const file = fixture(`pi/versions/${name}.jsonl`);
  const replayPi = async (lines?: string[]) => {
    const parser = createPiParser(file, { kind: 'main', sessionId: name }, false);
    const events = [...parser.start(), ...(lines ?? (await linesOf(file))).flatMap((line) => parser.line(Buffer.from(line)))];
    return { events, state: foldAll(events)[0] as SessionState };
  };

  it('reads the session; bashExecution, custom_message, label and thinking_level_change are known and skipped', async () => {
    const { state } = await replayPi();
    expect(toDetail(state, { now: Date.parse('2026-03-15T10:01:00Z') })).toMatchObject({
      cwd: '/home/dev/notes',
      agent_name: 'Changelog 0.4',
      user_messages: 1,
      assistant_messages: 2,
      last_file_write: '/home/dev/notes/CHANGELOG.md',
      cost_usd: 0.008745,
      activity: 'waiting',
    });
  });

  it('an entry type and a block type it does not know count once each, with the session format', async () => {
    const { events } = await replayPi();
    expect(diagnosticsOf(events)).toEqual([
      expect.objectContaining({ code: 'E_UNKNOWN_RECORD', version: 'session format 3', message: expect.stringContaining('entry type "leaf"') }),
      expect.objectContaining({ code: 'E_UNKNOWN_RECORD', version: 'session format 3', message: expect.stringContaining('content block "audio"') }),
    ]);
  });

  it('a format 1 file (no version, no entry ids) is read, and its unknown kinds say format 1', async () => {
    const { events, state } = await replayPi([
      '{"type":"session","id":"4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f6a7b8","timestamp":"2025-11-02T10:00:00.000Z","cwd":"/home/dev/notes"}',
      '{"type":"message","timestamp":"2025-11-02T10:00:05.000Z","message":{"role":"user","content":"hi","timestamp":1762077605000}}',
      '{"type":"message","timestamp":"2025-11-02T10:00:06.000Z","message":{"role":"oracle","content":"?"}}',
    ]);
    expect(state.userMessages).toBe(1);
    expect(diagnosticsOf(events)).toEqual([expect.objectContaining({ version: 'session format 1', message: expect.stringContaining('message role "oracle"') })]);
  });
});

describe('Cursor composer versions', () => {
  const composer = (v: number): Composer => ({ _v: v, name: 'n', createdAt: 1, lastUpdatedAt: 2, fullConversationHeadersOnly: [{ bubbleId: 'b1', type: 1 }] });
  const bubble = (id: string, type: number, text: string): BubbleRecord => ({ bubbleId: id, json: { ok: true, value: { bubbleId: id, type, text } }, raw: '' });

  it('a composer of _v 9 records its document version; both bubble types are read without a count', () => {
    const events = mapCursorComposer({ dbPath: '/c.vscdb' }, 'c1', composer(9), [bubble('b1', 1, 'hi'), bubble('b2', 2, 'hello')]);
    const [state] = foldAll(events);
    expect(state).toMatchObject({ version: 'composer v9', userMessages: 1, assistantMessages: 1 });
    expect(diagnosticsOf(events)).toEqual([]);
  });

  it('a newer composer version and a bubble type it does not know count as unknown_record, once each', () => {
    const events = mapCursorComposer({ dbPath: '/c.vscdb' }, 'c1', composer(14), [bubble('b1', 1, 'hi'), bubble('b2', 7, 'x'), bubble('b3', 7, 'y')]);
    expect(diagnosticsOf(events)).toEqual([
      expect.objectContaining({ code: 'E_UNKNOWN_RECORD', version: 'composer v14', path: '/c.vscdb', message: expect.stringContaining('composer document version 14') }),
      expect.objectContaining({ code: 'E_UNKNOWN_RECORD', version: 'composer v14', message: expect.stringContaining('bubble type 7') }),
    ]);
    expect(foldAll(events)[0]?.userMessages).toBe(1);
  });
});
