import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Where } from '../../../src/sources/descriptor.js';
import { qwen as qwenFacts } from '../../../src/sources/qwen/descriptor.js';
import { qwen } from '../../../src/sources/qwen/index.js';
import { createQwenParser } from '../../../src/sources/qwen/parse.js';
import { qwenChatDocumentId, qwenIdFromFile, qwenProjectsDir, qwenTmpDir } from '../../../src/sources/qwen/paths.js';
import { resumeCommand } from '../../../src/streams/views.js';
import { deriveActivity } from '../../../src/streams/activity.js';
import { FIXTURES, foldById, useFixtureHome } from '../../helpers/source-harness.js';

const SID = '6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d';
const FILE = path.join(FIXTURES, `qwen/.qwen/projects/-home-dev-shop/chats/${SID}.jsonl`);
/** A chat of the older single-document form, under `tmp/<sha256 of the project path>/chats/`. */
const DOCUMENT = '9c8b7a6f-5e4d-4c3b-8a29-1f0e9d8c7b6a';

const activityAfter = async (count: number, iso: string): Promise<string> => {
  const parser = createQwenParser(FILE, SID, false);
  const lines = (await readFile(FILE, 'utf8')).split('\n').slice(0, count);
  const state = foldById([...parser.start(), ...lines.flatMap((line) => parser.line(Buffer.from(line)))]).get(SID);
  if (!state) throw new Error('no session');
  return deriveActivity(state, Date.parse(iso));
};

describe('Qwen Code chats', () => {
  const fx = useFixtureHome('agentwatch-qwen-', 'qwen');

  it('lists a chat with its folder, branch, model, version, title, tokens and resume command', async () => {
    const run = await fx.once(qwen);
    const state = run.sessions().get(SID);
    expect(state).toMatchObject({
      cwd: '/home/dev/shop',
      gitBranch: 'main',
      model: 'qwen3-coder-plus',
      version: '0.18.1',
      agentName: 'Zero-stock products',
      resumeCommand: `qwen --resume ${SID}`,
      createdAt: Date.parse('2026-03-10T09:00:00.000Z'),
      userMessages: 1,
      // A sub-agent's record counts its usage, not a message.
      assistantMessages: 2,
      lastFileWrite: '/home/dev/shop/db/zero_stock.sql',
    });
    expect(state?.tokens).toEqual({ input: 2000 + 500 + 100 + 1000, output: 100 + 60 + 15 + 10, cacheCreation: 0, cacheRead: 10000 + 12000 + 12500 });
    expect(run.diagnostics().map((d) => d.code).sort()).toEqual(['E_JUNK_LINE', 'E_UNKNOWN_RECORD']);
    expect(run.diagnostics().find((d) => d.code === 'E_UNKNOWN_RECORD')).toMatchObject({ version: '0.18.1', message: expect.stringContaining('system record "future_marker"') });
  });

  it('reads the older single-document chats: prompts, answers of type "qwen", tools, model and tokens; no resume command', async () => {
    const run = await fx.once(qwen);
    const state = run.sessions().get(DOCUMENT);
    expect(state).toMatchObject({
      model: 'qwen3-coder-plus',
      createdAt: Date.parse('2025-10-20T08:00:00.000Z'),
      userMessages: 1,
      assistantMessages: 1,
      lastFileWrite: '/home/dev/shop/db/migrations/004_stock.sql',
      path: expect.stringMatching(/session-2025-10-20T08-00-9c8b7a6f\.json$/),
    });
    expect(state?.tokens).toEqual({ input: 1000 + 500, output: 200 + 40, cacheCreation: 0, cacheRead: 8000 + 9000 });
    // Qwen Code's --resume finds JSONL chats only.
    const current = run.sessions().get(SID);
    if (!state || !current) throw new Error('a session is missing');
    expect(resumeCommand(state)).toBe('');
    expect(resumeCommand(current)).toBe(`qwen --resume ${SID}`);
  });

  it('activity: a tool call shows its tool; a reply of calls alone then a failed write; an answer waits', async () => {
    expect(await activityAfter(2, '2026-03-10T09:00:04.500Z')).toBe('reading');
    expect(await activityAfter(5, '2026-03-10T09:00:10Z')).toBe('writing');
    expect(await activityAfter(7, '2026-03-10T09:00:40Z')).toBe('waiting');
  });

  it('honours QWEN_RUNTIME_DIR and reads only projects/<project>/chats/*.jsonl', () => {
    expect(qwenProjectsDir({ HOME: '/h' })).toBe('/h/.qwen/projects');
    expect(qwenProjectsDir({ HOME: '/h', QWEN_RUNTIME_DIR: '/q' })).toBe('/q/projects');
    expect(qwenIdFromFile('/p', '/p/-w/chats/s1.jsonl')).toBe('s1');
    expect(qwenIdFromFile('/p', '/p/-w/other/s1.jsonl')).toBeUndefined();
    expect(qwenTmpDir({ HOME: '/h', QWEN_RUNTIME_DIR: '/q' })).toBe('/q/tmp');
    // doctor looks in tmp/ where it exists; a change below it is a change for search.
    const where: Where = { config: { claude_dirs: [] }, env: { HOME: '/h' }, platform: 'linux' };
    expect(qwenFacts.locations(where)).toEqual([{ path: '/h/.qwen/projects' }, { path: '/h/.qwen/tmp', onlyIfPresent: true }]);
    expect(qwenFacts.stampRoots(where)).toEqual(['/h/.qwen/projects', '/h/.qwen/tmp']);
    expect(qwenChatDocumentId('/t', '/t/abc/chats/session-2025-10-20T08-00-9c8b7a6f.json')).toBe('session-2025-10-20T08-00-9c8b7a6f');
    expect(qwenChatDocumentId('/t', '/t/abc/chats/other.json')).toBeUndefined();
    expect(qwenChatDocumentId('/t', '/t/abc/session-x.json')).toBeUndefined();
  });
});
