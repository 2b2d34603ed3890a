import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { gemini } from '../../../src/sources/gemini/index.js';
import { createGeminiParser } from '../../../src/sources/gemini/parse.js';
import { classifyGeminiFile, geminiProjectPath, geminiTmpDir } from '../../../src/sources/gemini/paths.js';
import { deriveActivity } from '../../../src/streams/activity.js';
import { diagnosticsOf, FIXTURES, foldById, useFixtureHome } from '../../helpers/source-harness.js';

const TMP = path.join(FIXTURES, 'gemini/.gemini/tmp');
const SID = '3f2a9c1e-5b7d-4e8a-9c0f-1a2b3c4d5e6f';
const SUB = 'b7c8d9e0-1111-4222-8333-944455556666';
const LEGACY = 'aa11bb22-3c4d-4e5f-8a6b-7c8d9e0f1a2b';
/** Chats of the single-document form: a finished one, and one converted to JSONL on resume (both files kept). */
const DOCUMENT = 'cc33dd44-0000-4000-8000-000000000000';
const CONVERTED = 'dd55ee66-1111-4222-8333-444455556666';
/** A sub-agent's chat of the single-document form, in a folder named by its parent session. */
const SUB_DOCUMENT = '5a6b7c8d-3333-4444-8555-666677778888';
const MAIN = path.join(TMP, 'weather/chats/session-2026-03-10T09-39-3f2a9c1e.jsonl');

/** The first `count` complete lines of the main chat, parsed and folded. */
const replay = async (count?: number): Promise<{ events: SessionEvent[]; at: (iso: string) => string }> => {
  const kind = classifyGeminiFile(TMP, MAIN);
  if (!kind) throw new Error('not a chat file');
  const parser = createGeminiParser(MAIN, kind, '/home/dev/weather', false);
  const text = await readFile(MAIN, 'utf8');
  const lines = text.slice(0, text.lastIndexOf('\n')).split('\n').slice(0, count);
  const events = lines.flatMap((line) => parser.line(Buffer.from(line)));
  const state = foldById(events).get(SID);
  if (!state) throw new Error('no session');
  return { events, at: (iso) => deriveActivity(state, Date.parse(iso)) };
};

describe('Gemini CLI chats', () => {
  const fx = useFixtureHome('agentwatch-gemini-', 'gemini');

  it('lists each chat with its project, model, summary, tokens and resume command', async () => {
    const run = await fx.once(gemini);
    const sessions = run.sessions();
    expect([...sessions.keys()].sort()).toEqual([LEGACY, SID, SUB, DOCUMENT, CONVERTED, SUB_DOCUMENT].sort());
    expect(sessions.get(SID)).toMatchObject({
      cwd: '/home/dev/weather',
      model: 'gemini-3-pro-preview',
      agentName: 'Seven-day forecast endpoint',
      resumeCommand: `gemini --resume ${SID}`,
      isSidechain: false,
      createdAt: Date.parse('2026-03-10T09:39:58.000Z'),
      // A rewound prompt and answer were said (and paid for): they still count.
      userMessages: 3,
      assistantMessages: 4,
      lastFileWrite: '/home/dev/weather/src/routes/forecast.ts',
    });
    // Each message's usage once, however often the message was written again; cached input out of input, thinking in output.
    expect(sessions.get(SID)?.tokens).toEqual({ input: 4100, output: 590, cacheCreation: 0, cacheRead: 41900 });
    // A sub-agent's chat, in a folder named by its parent session: hidden under it, not resumable alone.
    expect(sessions.get(SUB)).toMatchObject({ isSidechain: true, parentId: SID, cwd: '/home/dev/weather', model: 'gemini-3-flash-preview', resumeCommand: '' });
    // An older project folder named by the sha256 of its path: the path from projects.json.
    expect(sessions.get(LEGACY)).toMatchObject({ cwd: '/home/dev/legacy-api', model: 'gemini-2.5-pro', userMessages: 1 });
    // A chat of the single-document form, read whole: prompts, answers, tool calls, usage, the summary.
    expect(sessions.get(DOCUMENT)).toMatchObject({
      cwd: '/home/dev/legacy-api',
      model: 'gemini-2.5-pro',
      agentName: 'Rate-limit the login route',
      resumeCommand: `gemini --resume ${DOCUMENT}`,
      createdAt: Date.parse('2026-02-01T10:00:00.000Z'),
      userMessages: 1,
      assistantMessages: 2,
      lastFileWrite: '/home/dev/legacy-api/routes/login.js',
      path: expect.stringMatching(/session-2026-02-01T10-00-cc33dd44\.json$/),
    });
    expect(sessions.get(DOCUMENT)?.tokens).toEqual({ input: 4000 + 2100, output: 160 + 60, cacheCreation: 0, cacheRead: 2000 + 5000 });
    expect(sessions.get(SUB_DOCUMENT)).toMatchObject({ isSidechain: true, parentId: DOCUMENT, cwd: '/home/dev/legacy-api', model: 'gemini-2.5-flash', resumeCommand: '' });
    // Converted to JSONL when resumed: one session, read from the JSONL file the CLI went on writing.
    expect(sessions.get(CONVERTED)).toMatchObject({ userMessages: 2, assistantMessages: 2, model: 'gemini-2.5-flash', path: expect.stringMatching(/dd55ee66\.jsonl$/) });
    expect(sessions.get(CONVERTED)?.tokens).toEqual({ input: 3000 + 500, output: 15 + 20, cacheCreation: 0, cacheRead: 3000 });
    // A chat caught half written (and never complete since): counted, not listed.
    expect(run.diagnostics().find((d) => d.path?.endsWith('ee77ff00.json'))).toMatchObject({ code: 'E_JUNK_LINE' });
    expect(run.diagnostics().map((d) => d.code).sort()).toEqual(['E_JUNK_LINE', 'E_JUNK_LINE', 'E_UNKNOWN_RECORD']);
    expect(run.diagnostics().find((d) => d.code === 'E_UNKNOWN_RECORD')?.message).toContain('message type "plan_update"');
  });

  it('honours GEMINI_CLI_HOME', () => {
    expect(geminiTmpDir({ HOME: '/h' })).toBe('/h/.gemini/tmp');
    expect(geminiTmpDir({ HOME: '/h', GEMINI_CLI_HOME: '/g' })).toBe('/g/.gemini/tmp');
  });
});

describe('Gemini CLI activity', () => {
  it('a finished tool paints its activity; a reply of tool calls alone is the model still working', async () => {
    expect((await replay(6)).at('2026-03-10T09:40:09Z')).toBe('reading');
    expect((await replay(8)).at('2026-03-10T09:40:12Z')).toBe('thinking');
    expect((await replay(9)).at('2026-03-10T09:40:16Z')).toBe('writing');
  });

  it('an answer waits for the user; a prompt is thinking', async () => {
    const { at } = await replay();
    expect(at('2026-03-10T09:41:45Z')).toBe('thinking');
    expect(at('2026-03-10T09:42:00Z')).toBe('waiting');
    expect(at('2026-03-10T09:44:00Z')).toBe('idle');
    expect((await replay(16)).at('2026-03-10T09:41:35Z')).toBe('thinking');
  });

  it('a message written again (usage, finished calls) is one message', async () => {
    const { events } = await replay(9);
    expect(events.filter((e) => e.type === 'turn' && e.role === 'assistant')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'tool_call').map((e) => e.type === 'tool_call' && e.name)).toEqual(['read_file', 'write_file']);
    expect(diagnosticsOf(events).map((d) => d.code)).toEqual(['E_JUNK_LINE']);
  });

  it('the project path: the folder marker first, then projects.json by label or by hash', () => {
    const none = (): undefined => undefined;
    expect(geminiProjectPath('/t/shop', '{"projects":{"/w/shop":"shop"}}', none)).toBe('/w/shop');
    expect(geminiProjectPath('/t/2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae', '{"projects":{"foo":"x"}}', none)).toBe('foo');
    expect(geminiProjectPath('/t/shop', 'not json', none)).toBeUndefined();
    expect(geminiProjectPath('/t/shop', undefined, () => '/marked\n')).toBe('/marked');
  });
});

describe('Gemini CLI retries', () => {
  it('the "System: Please continue." the CLI sends after an empty or broken answer is no prompt', () => {
    const file = path.join(FIXTURES, 'gemini/retried/session-2026-01-10T20-00-5b6c7d8e.jsonl');
    const id = '5b6c7d8e-9f01-4a2b-8c3d-4e5f60718293';
    const parser = createGeminiParser(file, { kind: 'main', project: '0c1d2e3f', provisionalId: '5b6c7d8e' }, undefined, false);
    return readFile(file, 'utf8').then((text) => {
      const events = text.trimEnd().split('\n').flatMap((line) => parser.line(Buffer.from(line)));
      const state = foldById(events).get(id);
      expect(state).toMatchObject({ userMessages: 1, assistantMessages: 1, model: 'gemini-2.5-flash' });
      expect(state?.tokens).toEqual({ input: 5000 + 1100, output: 52 + 90, cacheCreation: 0, cacheRead: 12000 });
      expect(diagnosticsOf(events)).toEqual([]);
    });
  });
});
