import { cp, mkdir, readFile, utimes } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cursorTranscripts } from '../../../src/sources/cursor/transcripts.js';
import { cursor } from '../../../src/sources/cursor/index.js';
import { cursorDbPath } from '../../../src/sources/cursor/paths.js';
import { createCursorTranscriptParser } from '../../../src/sources/cursor/transcript-parse.js';
import { classifyCursorTranscript, cursorProjectsDir, workspaceOfFolder } from '../../../src/sources/cursor/transcript-paths.js';
import { deriveActivity } from '../../../src/streams/activity.js';
import { FIXTURES, foldById, useFixtureHome } from '../../helpers/source-harness.js';
import type { TempHome } from '../../helpers/temp-home.js';
import { buildFixtureDb } from '../sqlite/helpers.js';

const ID = '4e5f6a7b-8c9d-4e0f-a1b2-c3d4e5f6a7b8';
const SUB = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
const FIXTURE = path.join(FIXTURES, 'cursor', 'agent-transcripts');
/** When the fixture transcripts were last written: the only time they have. */
const WRITTEN = new Date('2026-03-10T09:45:00.000Z');

/** Cursor's folder name for a workspace: its path with `/` and `.` as `-`, no leading one. */
const folderOf = (workspace: string): string => workspace.replace(/[^A-Za-z0-9-]/g, '-').replace(/^-+/, '');

/** The fixture transcripts under `projects/<folder>/agent-transcripts/`, written at WRITTEN. */
const install = async (home: TempHome, folder: string): Promise<string> => {
  const dir = path.join(cursorProjectsDir(home.env), folder, 'agent-transcripts');
  await mkdir(dir, { recursive: true });
  await cp(FIXTURE, dir, { recursive: true });
  const main = path.join(dir, ID, `${ID}.jsonl`);
  await utimes(main, WRITTEN, WRITTEN);
  await utimes(path.join(dir, ID, 'subagents', `${SUB}.jsonl`), WRITTEN, WRITTEN);
  return main;
};

describe('Cursor Agent transcripts', () => {
  const fx = useFixtureHome('agentwatch-cursor-transcripts-');

  it('lists a transcript as a cursor session: workspace from its folder, times from the file, no tokens', async () => {
    const workspace = path.join(fx.home.home, 'work', 'my.app');
    await mkdir(workspace, { recursive: true });
    await install(fx.home, folderOf(workspace));
    const run = await fx.once(cursor);
    const state = run.sessions().get(ID);
    expect(state).toMatchObject({
      cwd: workspace,
      resumeCommand: `cursor-agent --resume="${ID}"`,
      lastActivityAt: WRITTEN.getTime(),
      userMessages: 1,
      // turn_ended hands the turn back without counting as a message.
      assistantMessages: 2,
      lastFileWrite: path.join(workspace, 'src/theme.ts'),
      tokens: { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 },
    });
    expect(state?.createdAt).toBeGreaterThan(0);
    expect(deriveActivity(state!, WRITTEN.getTime() + 60_000)).toBe('waiting');
    expect(run.sessions().get(SUB)).toMatchObject({ isSidechain: true, parentId: ID });
    expect(run.diagnostics().map((d) => d.code).sort()).toEqual(['E_JUNK_LINE', 'E_UNKNOWN_RECORD']);
    expect(run.events.filter((e) => e.type === 'ready')).toEqual([{ type: 'ready', agent: 'cursor' }]);
  });

  it('a folder no existing path matches: the working directory a tool was given', async () => {
    await install(fx.home, 'nowhere-to-be-found-xyz');
    const run = await fx.once(cursorTranscripts);
    expect(run.sessions().get(ID)).toMatchObject({ cwd: '/home/dev/app', lastFileWrite: '/home/dev/app/src/theme.ts' });
  });

  it('a chat the IDE also keeps as a composer is read from the IDE database only', async () => {
    await install(fx.home, 'nowhere');
    const dbFile = cursorDbPath(fx.home.env, 'linux');
    await mkdir(path.dirname(dbFile), { recursive: true });
    const db = buildFixtureDb(dbFile, 'cursor', { data: false });
    db.prepare('INSERT INTO cursorDiskKV VALUES (?, ?)').run(`composerData:${ID}`, JSON.stringify({ composerId: ID }));
    db.close();
    const run = await fx.once(cursorTranscripts, { platform: 'linux' });
    expect(run.sessions().has(ID)).toBe(false);
    expect(run.sessions().has(SUB)).toBe(false);
  });

  it('activity: each line is a step; a call is done when the next line comes; a failed turn ends with an error', async () => {
    const lines = (await readFile(path.join(FIXTURE, ID, `${ID}.jsonl`), 'utf8')).split('\n');
    let now = 1_000;
    const parser = createCursorTranscriptParser('/t.jsonl', { sessionId: ID, folder: 'x' }, () => undefined, false, undefined, 500, () => now);
    const events = [...parser.start()];
    const stateAfter = (count: number) => {
      for (const line of lines.splice(0, count)) {
        now += 1_000;
        events.push(...parser.line(Buffer.from(line)));
      }
      return foldById(events).get(ID)!;
    };
    expect(deriveActivity(stateAfter(2), now + 100)).toBe('reading');
    expect(foldById(events).get(ID)?.createdAt).toBe(500);
    expect(deriveActivity(stateAfter(2), now + 100)).toBe('writing');
    expect(deriveActivity(stateAfter(1), now + 100)).not.toBe('writing');
    const failed = parser.line(Buffer.from(JSON.stringify({ role: 'assistant', message: { content: [{ type: 'tool_use', name: 'Shell', input: { command: 'x' } }] } })));
    const ended = parser.line(Buffer.from(JSON.stringify({ type: 'turn_ended', status: 'error', error: 'User aborted request' })));
    expect(failed.filter((e) => e.type === 'tool_call')).toHaveLength(1);
    expect(ended.filter((e) => e.type === 'tool_result')).toMatchObject([{ isError: true }]);
  });

  it('paths: only <folder>/agent-transcripts/<id>/<id>.jsonl and its subagents; folders turned back by what exists', () => {
    expect(classifyCursorTranscript('/p', `/p/f/agent-transcripts/${ID}/${ID}.jsonl`)).toEqual({ sessionId: ID, folder: 'f' });
    expect(classifyCursorTranscript('/p', `/p/f/agent-transcripts/${ID}/subagents/s.jsonl`)).toEqual({ sessionId: 's', folder: 'f', parentId: ID });
    expect(classifyCursorTranscript('/p', `/p/f/agent-transcripts/${ID}/other.jsonl`)).toBeUndefined();
    expect(classifyCursorTranscript('/p', `/p/f/other/${ID}/${ID}.jsonl`)).toBeUndefined();
    const dirs = new Set(['/home', '/home/dev', '/home/dev/my-app', '/home/dev/my-app/web.v2']);
    expect(workspaceOfFolder('home-dev-my-app-web-v2', (p) => dirs.has(p))).toBe('/home/dev/my-app/web.v2');
    expect(workspaceOfFolder('home-dev-gone', (p) => dirs.has(p))).toBeUndefined();
  });
});
