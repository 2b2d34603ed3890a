import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { droid } from '../../../src/sources/droid/index.js';
import { createDroidParser } from '../../../src/sources/droid/parse.js';
import { droidIdFromFile, droidSessionsDir, droidSettingsFile } from '../../../src/sources/droid/paths.js';
import { parseDroidSettings, type DroidSettingsReader } from '../../../src/sources/droid/settings.js';
import { deriveActivity } from '../../../src/streams/activity.js';
import { FIXTURES, foldById, useFixtureHome } from '../../helpers/source-harness.js';

const SID = '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
const SUB = '0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e';
const FILE = path.join(FIXTURES, `droid/.factory/sessions/-home-dev-api/${SID}.jsonl`);
const NO_SETTINGS: DroidSettingsReader = () => undefined;

const activityAfter = async (count: number, iso: string): Promise<string> => {
  const parser = createDroidParser(FILE, SID, false, undefined, NO_SETTINGS);
  const lines = (await readFile(FILE, 'utf8')).split('\n').slice(0, count);
  const state = foldById([...parser.start(), ...lines.flatMap((line) => parser.line(Buffer.from(line)))]).get(SID);
  if (!state) throw new Error('no session');
  return deriveActivity(state, Date.parse(iso));
};

describe('Factory Droid sessions', () => {
  const fx = useFixtureHome('agentwatch-droid-', 'droid');

  it('lists a session with its folder, title, model, tokens from its settings file and resume command', async () => {
    const run = await fx.once(droid);
    const state = run.sessions().get(SID);
    expect(state).toMatchObject({
      cwd: '/home/dev/api',
      model: 'claude-sonnet-4-5-20250929',
      agentName: 'Orders pagination',
      resumeCommand: `droid --resume ${SID}`,
      createdAt: Date.parse('2026-03-10T09:30:00.000Z'),
      userMessages: 1,
      assistantMessages: 2,
      isSidechain: false,
    });
    // Thinking is billed as output.
    expect(state?.tokens).toEqual({ input: 1200, output: 340 + 60, cacheCreation: 5000, cacheRead: 42000 });
    expect(run.diagnostics().map((d) => d.code).sort()).toEqual(['E_JUNK_LINE', 'E_UNKNOWN_RECORD']);
    expect(run.diagnostics().find((d) => d.code === 'E_UNKNOWN_RECORD')).toMatchObject({ version: 'session format 2', message: expect.stringContaining('record type "future_marker"') });
  });

  it('a sub-agent session (callingSessionId) is a hidden sidechain of its caller, its custom model named without the prefix', async () => {
    const run = await fx.once(droid);
    expect(run.sessions().get(SUB)).toMatchObject({ isSidechain: true, parentId: SID, model: 'GLM-4.6-[Fireworks]-0', tokens: { input: 300, output: 20, cacheCreation: 0, cacheRead: 0 } });
  });

  it('activity: a read shows reading, an edit writing, the answer waits; a failed result is an error', async () => {
    expect(await activityAfter(3, '2026-03-10T09:30:04.500Z')).toBe('reading');
    expect(await activityAfter(6, '2026-03-10T09:30:10Z')).toBe('writing');
    expect(await activityAfter(11, '2026-03-10T09:30:40Z')).toBe('waiting');
    const parser = createDroidParser(FILE, SID, false, undefined, NO_SETTINGS);
    const lines = (await readFile(FILE, 'utf8')).split('\n');
    const events = lines.flatMap((line) => parser.line(Buffer.from(line)));
    expect(events.filter((e) => e.type === 'tool_result')).toMatchObject([{ callId: 'toolu_r1', isError: false }, { callId: 'toolu_e1', isError: true }]);
    expect(events.find((e) => e.type === 'tool_call' && e.name === 'Edit')).toMatchObject({ filePath: '/home/dev/api/routes/orders.ts' });
  });

  it('reads the settings file again when it was rewritten, as running totals', () => {
    let text = JSON.stringify({ model: 'gpt-5.1-codex', tokenUsage: { inputTokens: 10, outputTokens: 1 } });
    let stamp = 'a';
    const reads: DroidSettingsReader = (_file, known) => (known === stamp ? undefined : parseDroidSettings(text, stamp));
    const parser = createDroidParser(FILE, SID, false, undefined, reads);
    const answer = (n: number): Buffer => Buffer.from(JSON.stringify({ type: 'message', id: `a${n}`, timestamp: `2026-03-10T09:3${n}:00Z`, message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] } }));
    const events = [...parser.start(), ...parser.line(answer(1))];
    text = JSON.stringify({ model: 'gpt-5.1-codex', tokenUsage: { inputTokens: 25, outputTokens: 4, thinkingTokens: 2 } });
    stamp = 'b';
    events.push(...parser.line(answer(2)));
    expect(events.filter((e) => e.type === 'usage')).toMatchObject([
      { mode: 'total', tokens: { input: 10, output: 1 } },
      { mode: 'total', tokens: { input: 25, output: 6 } },
    ]);
    expect(foldById(events).get(SID)?.tokens).toEqual({ input: 25, output: 6, cacheCreation: 0, cacheRead: 0 });
    expect(parseDroidSettings('not json', 's')).toEqual({ stamp: 's' });
  });

  it('honours FACTORY_HOME_OVERRIDE and reads only <folder>/<id>.jsonl', () => {
    expect(droidSessionsDir({ HOME: '/h' })).toBe('/h/.factory/sessions');
    expect(droidSessionsDir({ HOME: '/h', FACTORY_HOME_OVERRIDE: '/f' })).toBe('/f/.factory/sessions');
    expect(droidSessionsDir({ HOME: '/h', FACTORY_HOME_OVERRIDE: 'relative' })).toBe('/h/.factory/sessions');
    expect(droidIdFromFile('/s', '/s/-w/s1.jsonl')).toBe('s1');
    expect(droidIdFromFile('/s', '/s/s1.jsonl')).toBeUndefined();
    expect(droidIdFromFile('/s', '/s/-w/s1.settings.json')).toBeUndefined();
    expect(droidSettingsFile('/s/-w/s1.jsonl')).toBe('/s/-w/s1.settings.json');
  });
});
