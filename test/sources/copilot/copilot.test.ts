import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copilot } from '../../../src/sources/copilot/index.js';
import { createCopilotParser } from '../../../src/sources/copilot/parse.js';
import { copilotIdFromFile, copilotSessionsDir } from '../../../src/sources/copilot/paths.js';
import { deriveActivity } from '../../../src/streams/activity.js';
import { FIXTURES, foldById, useFixtureHome } from '../../helpers/source-harness.js';

const DIR = path.join(FIXTURES, 'copilot/.copilot/session-state');
const ENDED = '5d0c1e2f-3a4b-4c5d-8e6f-7a8b9c0d1e2f';
const LIVE = '8e9f0a1b-2c3d-4e5f-9a6b-7c8d9e0f1a2b';

/** The activity of the ended session after its first `count` lines, at `iso`. */
const activityAfter = async (count: number, iso: string): Promise<string> => {
  const file = path.join(DIR, ENDED, 'events.jsonl');
  const parser = createCopilotParser(file, ENDED, false);
  const lines = (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '').slice(0, count);
  const state = foldById([...parser.start(), ...lines.flatMap((line) => parser.line(Buffer.from(line)))]).get(ENDED);
  if (!state) throw new Error('no session');
  return deriveActivity(state, Date.parse(iso));
};

describe('Copilot CLI sessions', () => {
  const fx = useFixtureHome('agentwatch-copilot-', 'copilot');

  it('lists each session folder with its project, branch, model, version, tokens and resume command', async () => {
    const run = await fx.once(copilot);
    const sessions = run.sessions();
    expect([...sessions.keys()].sort()).toEqual([ENDED, LIVE]);
    expect(sessions.get(ENDED)).toMatchObject({
      cwd: '/home/dev/ledger',
      gitBranch: 'fix-rounding',
      model: 'claude-sonnet-4.5',
      version: '1.0.78',
      resumeCommand: `copilot --resume ${ENDED}`,
      createdAt: Date.parse('2026-03-10T09:50:00.000Z'),
      // A sub-agent's messages (agentId) are not the session's own.
      userMessages: 1,
      assistantMessages: 2,
      lastFileWrite: '/home/dev/ledger/src/ledger.ts',
    });
    // The usage the run recorded when it ended, every model's, cache reads and writes out of input.
    expect(sessions.get(ENDED)?.tokens).toEqual({ input: 9000, output: 1100, cacheCreation: 6000, cacheRead: 40000 });
    expect(sessions.get(LIVE)).toMatchObject({ cwd: '/home/dev/site', model: 'gpt-5.2', version: '1.0.81', userMessages: 1, assistantMessages: 1 });
    expect(sessions.get(LIVE)?.tokens).toEqual({ input: 0, output: 0, cacheCreation: 0, cacheRead: 0 });
    expect(run.diagnostics().map((d) => d.code).sort()).toEqual(['E_JUNK_LINE', 'E_UNKNOWN_RECORD']);
    expect(run.diagnostics().find((d) => d.code === 'E_UNKNOWN_RECORD')).toMatchObject({ version: '1.0.78', message: expect.stringContaining('"session.future_event"') });
  });

  it('activity: a prompt is thinking, a tool its own, a permission prompt waits, a sub-agent run is spawning', async () => {
    expect(await activityAfter(4, '2026-03-10T09:50:07Z')).toBe('thinking');
    expect(await activityAfter(7, '2026-03-10T09:50:09Z')).toBe('reading');
    expect(await activityAfter(11, '2026-03-10T09:50:30Z')).toBe('waiting');
    expect(await activityAfter(17, '2026-03-10T09:50:47Z')).toBe('spawning');
    expect(await activityAfter(22, '2026-03-10T09:51:30Z')).toBe('waiting');
  });

  it('honours COPILOT_HOME and reads only events.jsonl one folder down', () => {
    expect(copilotSessionsDir({ HOME: '/h' })).toBe('/h/.copilot/session-state');
    expect(copilotSessionsDir({ HOME: '/h', COPILOT_HOME: '/c' })).toBe('/c/session-state');
    expect(copilotIdFromFile('/s', '/s/abc/events.jsonl')).toBe('abc');
    expect(copilotIdFromFile('/s', '/s/abc/other.jsonl')).toBeUndefined();
    expect(copilotIdFromFile('/s', '/s/abc/x/events.jsonl')).toBeUndefined();
  });
});
