import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gemini, geminiSpec } from '../../../src/sources/gemini/index.js';
import { createJsonlSource } from '../../../src/sources/internal/jsonl-source.js';
import { deriveActivity } from '../../../src/streams/activity.js';
import { startWithCache, useFixtureHome, waitFor } from '../../helpers/source-harness.js';

/** The single-document chats of Gemini CLI before JSONL, rewritten whole on every change. */

const SID = '4d5e6f70-8192-4a3b-8c4d-5e6f708192a3';
const HASH = '2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae';
const STEM = 'session-2026-01-20T08-30-4d5e6f70';

interface Message {
  readonly id: string;
  readonly timestamp: string;
  readonly type: string;
  readonly content: string;
  readonly [key: string]: unknown;
}

const prompt = (id: string, at: string, content: string): Message => ({ id, timestamp: at, type: 'user', content });
const answer = (id: string, at: string, content: string, extra: Record<string, unknown> = {}): Message => ({
  id,
  timestamp: at,
  type: 'gemini',
  content,
  thoughts: [],
  tokens: { input: 1000, output: 50, cached: 400, thoughts: 10, tool: 0, total: 1060 },
  model: 'gemini-2.5-pro',
  ...extra,
});

/** The document as Gemini CLI 0.2x writes it: pretty-printed, no newline at the end. */
const chat = (messages: readonly Message[], summary?: string): string =>
  JSON.stringify({ sessionId: SID, projectHash: HASH, startTime: '2026-01-20T08:30:00.000Z', lastUpdated: messages.at(-1)?.timestamp, messages, ...(summary ? { summary } : {}) }, null, 2);

const FIRST = [prompt('m1', '2026-01-20T08:30:05.000Z', 'Add a /version route')];
const ANSWERED = [...FIRST, answer('m2', '2026-01-20T08:30:20.000Z', 'Added GET /version.')];
const SECOND = [...ANSWERED, prompt('m3', '2026-01-20T08:31:00.000Z', 'Now test it'), answer('m4', '2026-01-20T08:31:09.000Z', 'Added version.test.ts.')];

describe('Gemini CLI single-document chats', () => {
  const fx = useFixtureHome('agentwatch-gemini-json-', async (home) => {
    await mkdir(path.join(home.home, '.gemini/tmp', HASH, 'chats'), { recursive: true });
    // The sha256 of "foo": an older project folder named by the hash of its path.
    await writeFile(path.join(home.home, '.gemini/projects.json'), JSON.stringify({ projects: { foo: 'foo' } }));
  });
  const chats = (): string => path.join(fx.home.home, '.gemini/tmp', HASH, 'chats');
  const doc = (): string => path.join(chats(), `${STEM}.json`);

  it('reads each new version whole; a half-written one is counted and the last complete one stays', async () => {
    await writeFile(doc(), chat(FIRST));
    const run = await fx.ready(gemini);
    await waitFor('the chat', () => run.sessions().get(SID)?.userMessages === 1);
    expect(run.sessions().get(SID)).toMatchObject({ cwd: 'foo', resumeCommand: `gemini --resume ${SID}`, createdAt: Date.parse('2026-01-20T08:30:00.000Z') });

    await writeFile(doc(), chat(ANSWERED, 'The version route'));
    await waitFor('the answer', () => run.sessions().get(SID)?.assistantMessages === 1);
    expect(run.sessions().get(SID)).toMatchObject({ model: 'gemini-2.5-pro', agentName: 'The version route', userMessages: 1 });
    expect(run.sessions().get(SID)?.tokens).toEqual({ input: 600, output: 60, cacheCreation: 0, cacheRead: 400 });

    // Caught mid-rewrite: the CLI truncates the file and writes it again. Empty, it says nothing yet.
    await writeFile(doc(), '');
    const full = chat(SECOND, 'The version route');
    await writeFile(doc(), full.slice(0, full.length / 2));
    await waitFor('the half-written version', () => run.diagnostics().some((d) => d.code === 'E_JUNK_LINE'));
    // (A read that lands between the truncation and the write counts it again: each read is counted.)
    for (const d of run.diagnostics()) expect(d).toMatchObject({ code: 'E_JUNK_LINE', sessionId: SID, path: doc() });
    expect(run.sessions().get(SID)).toMatchObject({ userMessages: 1, assistantMessages: 1, agentName: 'The version route' });

    // The next complete version replaces the state: every message once, its usage once.
    await writeFile(doc(), full);
    await waitFor('the second turn', () => run.sessions().get(SID)?.userMessages === 2);
    expect(run.sessions().get(SID)).toMatchObject({ assistantMessages: 2, agentName: 'The version route' });
    expect(run.sessions().get(SID)?.tokens).toEqual({ input: 1200, output: 120, cacheCreation: 0, cacheRead: 800 });
    expect(run.errors).toEqual([]);
  });

  it('a chat converted to JSONL while watched stays one session, counted once', async () => {
    await writeFile(doc(), chat(ANSWERED));
    const run = await fx.ready(gemini);
    await waitFor('the chat', () => run.sessions().get(SID)?.assistantMessages === 1);
    // On resume, Gemini CLI writes the chat again as `<same name>.jsonl` and goes on there; the `.json` stays.
    const header = { sessionId: SID, projectHash: HASH, startTime: '2026-01-20T08:30:00.000Z', lastUpdated: '2026-01-20T08:30:20.000Z' };
    await writeFile(path.join(chats(), `${STEM}.jsonl`), [header, ...SECOND].map((row) => `${JSON.stringify(row)}\n`).join(''));
    await waitFor('the resumed chat', () => run.sessions().get(SID)?.userMessages === 2);
    expect([...run.sessions().keys()]).toEqual([SID]);
    expect(run.sessions().get(SID)).toMatchObject({ assistantMessages: 2, path: path.join(chats(), `${STEM}.jsonl`) });
    expect(run.sessions().get(SID)?.tokens).toEqual({ input: 1200, output: 120, cacheCreation: 0, cacheRead: 800 });
    // And a cold start of both forms reads the JSONL one only.
    const cold = await fx.once(gemini);
    expect([...cold.sessions().keys()]).toEqual([SID]);
    expect(cold.sessions().get(SID)).toMatchObject({ userMessages: 2, assistantMessages: 2 });
    expect(cold.sessions().get(SID)?.tokens).toEqual({ input: 1200, output: 120, cacheCreation: 0, cacheRead: 800 });
  });

  it('a warm start restores an unchanged chat without reading it, and keeps it when the file is half written', async () => {
    await writeFile(doc(), chat(ANSWERED, 'The version route'));
    await startWithCache(fx, gemini);
    const warm = await startWithCache(fx, gemini);
    expect(warm.events.filter((e) => 'sessionId' in e && e.sessionId === SID).map((e) => e.type)).toEqual(['restore']);
    const full = chat(SECOND);
    await writeFile(doc(), full.slice(0, 200));
    const after = await startWithCache(fx, gemini);
    expect(after.sessions().get(SID)).toMatchObject({ userMessages: 1, assistantMessages: 1, agentName: 'The version route' });
    expect(after.diagnostics().map((d) => d.code)).toEqual(['E_JUNK_LINE']);
    await writeFile(doc(), full);
    const fixed = await startWithCache(fx, gemini);
    expect(fixed.sessions().get(SID)).toMatchObject({ userMessages: 2, assistantMessages: 2 });
    expect(fixed.sessions().get(SID)?.tokens).toEqual({ input: 1200, output: 120, cacheCreation: 0, cacheRead: 800 });
  });

  it('a document over the size cap is reported, not read', async () => {
    await writeFile(doc(), chat(SECOND));
    const run = await fx.once(createJsonlSource(geminiSpec, { read: { maxDocumentBytes: 256 } }));
    expect(run.sessions().size).toBe(0);
    expect(run.diagnostics()).toEqual([expect.objectContaining({ code: 'E_OVERSIZED_LINE', path: doc(), message: expect.stringContaining('256-byte cap') })]);
  });

  it('a last answer whose tool call has not finished is a tool still running', async () => {
    const running = answer('m2', '2026-01-20T08:30:20.000Z', '', {
      toolCalls: [{ id: 'run_shell_command-1', name: 'run_shell_command', args: { command: 'npm test' }, status: 'executing', timestamp: '2026-01-20T08:30:21.000Z' }],
    });
    await writeFile(doc(), chat([...FIRST, running]));
    const run = await fx.once(gemini);
    const state = run.sessions().get(SID);
    if (!state) throw new Error('no session');
    expect(deriveActivity(state, Date.parse('2026-01-20T08:30:40Z'))).toBe('running');
    expect(run.events.filter((e) => e.type === 'tool_result')).toEqual([]);
    // Once written as finished, its result closes it.
    await writeFile(doc(), chat([...FIRST, { ...running, toolCalls: [{ ...(running.toolCalls as object[])[0], status: 'success' }] }]));
    const done = await fx.once(gemini);
    expect(done.events.filter((e) => e.type === 'tool_result')).toEqual([expect.objectContaining({ callId: 'run_shell_command-1', isError: false })]);
  });
});
