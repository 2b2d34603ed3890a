/**
 * The readings that keep a session's facts right (compaction, titles, split responses counted
 * once, cached tokens not counted twice; docs/formats/), checked end to end: real claude and
 * codex transcripts in a temp HOME, read by the built CLI in one-shot mode.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionDetail } from '../src/core/session.js';
import { runCli } from './helpers/cli.js';
import { makeTempHome, type TempHome } from './helpers/temp-home.js';

const NOW = Date.now();
const iso = (agoMs: number): string => new Date(NOW - agoMs).toISOString();
const jsonl = (records: readonly object[]): string => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
const CWD = '/home/dev/acme-api';

const base = (id: string) => ({ cwd: CWD, sessionId: id, version: '2.0.31', gitBranch: 'main', isSidechain: false, userType: 'external' });
const prompt = (id: string, agoMs: number, text: string) => ({ ...base(id), type: 'user', message: { role: 'user', content: text }, timestamp: iso(agoMs) });
const answer = (id: string, agoMs: number, msgId: string, content: object[]) => ({
  ...base(id),
  type: 'assistant',
  message: { id: msgId, role: 'assistant', model: 'claude-sonnet-4-5-20250929', content, usage: { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } },
  timestamp: iso(agoMs),
});
const result = (id: string, agoMs: number, toolId: string) => ({
  ...base(id),
  type: 'user',
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolId, content: 'ok' }] },
  timestamp: iso(agoMs),
});

const sessionsById: Record<string, object[]> = {
  // A title-summary at the top of an active file is a title, never "compacting".
  'aaaaaaaa-0000-4000-8000-000000000001': [
    { type: 'summary', summary: 'Token bucket limiter', leafUuid: 'leaf-0001' },
    { ...prompt('aaaaaaaa-0000-4000-8000-000000000001', 8_000, 'Add a limiter'), uuid: 'leaf-0001' },
  ],
  // A summary of another session (its leaf is not in this file) names nothing here.
  'aaaaaaaa-0000-4000-8000-000000000004': [
    { type: 'summary', summary: 'Cleared conversation history', leafUuid: 'elsewhere' },
    { ...prompt('aaaaaaaa-0000-4000-8000-000000000004', 8_000, 'Fix the flaky test'), uuid: 'own-0004' },
  ],
  // Claude Code 1.0.x: sub-agent turns inline with isSidechain; the file is still a main session.
  'aaaaaaaa-0000-4000-8000-000000000005': [
    prompt('aaaaaaaa-0000-4000-8000-000000000005', 90_000, 'Find the config'),
    answer('aaaaaaaa-0000-4000-8000-000000000005', 88_000, 'msg_5a', [{ type: 'tool_use', id: 'toolu_task', name: 'Task', input: { prompt: 'search' } }]),
    { ...prompt('aaaaaaaa-0000-4000-8000-000000000005', 87_000, 'search'), isSidechain: true },
    { ...answer('aaaaaaaa-0000-4000-8000-000000000005', 86_000, 'msg_5s', [{ type: 'text', text: 'found it' }]), isSidechain: true },
    result('aaaaaaaa-0000-4000-8000-000000000005', 85_000, 'toolu_task'),
    answer('aaaaaaaa-0000-4000-8000-000000000005', 80_000, 'msg_5b', [{ type: 'text', text: 'It is in config.yaml.' }]),
  ],
  // A compact_boundary 5 s ago: compacting.
  'aaaaaaaa-0000-4000-8000-000000000002': [
    prompt('aaaaaaaa-0000-4000-8000-000000000002', 300_000, 'Long task'),
    { ...base('aaaaaaaa-0000-4000-8000-000000000002'), type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', compactMetadata: { trigger: 'auto', preTokens: 150_000 }, timestamp: iso(5_000) },
    { ...base('aaaaaaaa-0000-4000-8000-000000000002'), type: 'user', isCompactSummary: true, message: { role: 'user', content: 'This session is being continued...' }, timestamp: iso(4_000) },
  ],
  // A tool call that got its result and was followed by an answer 60 s ago: waiting (not running),
  // and the answer is 60 s old, so the 10 s grace (measured from the record) has passed.
  'aaaaaaaa-0000-4000-8000-000000000003': [
    prompt('aaaaaaaa-0000-4000-8000-000000000003', 70_000, 'Run the tests'),
    answer('aaaaaaaa-0000-4000-8000-000000000003', 68_000, 'msg_1', [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test' } }]),
    result('aaaaaaaa-0000-4000-8000-000000000003', 65_000, 'toolu_1'),
    answer('aaaaaaaa-0000-4000-8000-000000000003', 60_000, 'msg_2', [{ type: 'text', text: 'All green.' }]),
    { type: 'custom-title', customTitle: 'Test run', sessionId: 'aaaaaaaa-0000-4000-8000-000000000003' },
  ],
};

let t: TempHome;
let list: SessionDetail[];

beforeAll(async () => {
  t = await makeTempHome();
  const dir = path.join(t.home, '.claude', 'projects', CWD.replace(/[^a-zA-Z0-9]/g, '-'));
  await mkdir(dir, { recursive: true });
  for (const [id, records] of Object.entries(sessionsById)) await writeFile(path.join(dir, `${id}.jsonl`), jsonl(records));
  const run = await runCli(['sessions', '--all', '--json'], { env: t.env, timeoutMs: 30_000 });
  expect(run.code).toBe(0);
  list = JSON.parse(run.stdout) as SessionDetail[];
});
afterAll(() => t.cleanup());

const byId = (suffix: string): SessionDetail | undefined => list.find((s) => s.session_id.endsWith(suffix));

describe('transcript readings, end to end', () => {
  it('a summary line is a title, not a compaction', () => {
    expect(byId('0001')).toMatchObject({ activity: 'thinking', agent_name: 'Token bucket limiter' });
  });
  it('a summary of another session names nothing here', () => {
    expect(byId('0004')).toMatchObject({ agent_name: '', activity: 'thinking' });
  });
  it('a Claude 1.0.x transcript with inline sidechain lines is listed and read by its own lines', () => {
    expect(byId('0005')).toMatchObject({ activity: 'waiting', user_messages: 1, assistant_messages: 2, output_tokens: 15 });
  });
  it('a recent compact_boundary means compacting', () => {
    expect(byId('0002')?.activity).toBe('compacting');
  });
  it('an answered tool call is waiting, 60 s after the answer, in a one-shot run', () => {
    expect(byId('0003')).toMatchObject({ activity: 'waiting', agent_name: 'Test run', current_tool: '' });
  });
});
