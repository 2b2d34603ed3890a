import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionDetail, SessionEvent } from '../../../src/core/session.js';
import { makeGooseSource } from '../../../src/sources/goose/index.js';
import { gooseTimestamp } from '../../../src/sources/goose/map.js';
import { gooseDbPath } from '../../../src/sources/goose/paths.js';
import { runCli } from '../../helpers/cli.js';
import { makeCtx } from '../../helpers/source-harness.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';
import { activityAt, buildFixtureDb, foldSession, forSession, ofType, waitFor } from '../sqlite/helpers.js';

const NOW = 1773137700000;
let home: TempHome;
let events: SessionEvent[] = [];

beforeEach(async () => {
  home = await makeTempHome('aw-goose-');
  const file = gooseDbPath(home.env, 'linux');
  mkdirSync(path.dirname(file), { recursive: true });
  buildFixtureDb(file, 'goose').close();
  events = [];
  let done = false;
  makeGooseSource()(makeCtx(home.env, { now: () => NOW, watch: false })).subscribe({ next: (e) => events.push(e), complete: () => (done = true) });
  await waitFor(() => done, 'goose one-shot');
});
afterEach(() => home.cleanup());

describe('goose fixture database (schema 13)', () => {
  it('reads every session once through the source; junk content and a content type of a later Goose are diagnostics', () => {
    expect(ofType(events, 'reset').map((e) => e.sessionId).sort()).toEqual(['20260310_1', '20260310_2', '20260310_3', '20260310_4']);
    expect(ofType(events, 'ready')).toHaveLength(1);
    const diagnostics = ofType(events, 'diagnostic');
    expect(diagnostics.map((d) => [d.code, d.sessionId])).toEqual([
      ['E_SCHEMA', '20260310_3'],
      ['E_UNKNOWN_RECORD', '20260310_3'],
    ]);
    expect(diagnostics[1]?.message).toContain('"citation"');
  });

  it('cwd, title, model, tokens and cost from the session row; the file written; waiting after the answer', () => {
    expect(foldSession(events, '20260310_1')).toMatchObject({
      agent: 'goose',
      cwd: '/home/dev/garden',
      agentName: 'Watering schedule',
      model: 'gpt-4o',
      createdAt: Date.parse('2026-03-10T10:00:00Z'),
      resumeCommand: 'goose session --resume --session-id 20260310_1',
      lastFileWrite: '/home/dev/garden/schedule.py',
      tokens: { input: 15200, output: 940, cacheCreation: 0, cacheRead: 0 },
      recordedCostUsd: 0.0481,
      // The nudge Goose adds for the model alone is no prompt of the person's.
      userMessages: 1,
    });
    expect(activityAt(events, '20260310_1', 1773136820000 + 30_000)).toBe('waiting');
    expect(ofType(forSession(events, '20260310_1'), 'tool_call').map((e) => e.name)).toEqual(['developer__text_editor', 'developer__text_editor']);
  });

  it('a shell command without its response is running; a tool waiting for approval is a wait for the user', () => {
    expect(activityAt(events, '20260310_2', 1773137610000)).toBe('running');
    expect(activityAt(events, '20260310_3', 1773137645000 + 30_000)).toBe('waiting');
  });

  it('a sub-agent session is folded but hidden, and not resumed on its own', () => {
    expect(foldSession(events, '20260310_4')).toMatchObject({ isSidechain: true, model: 'gpt-4o-mini', resumeCommand: '' });
  });
});

describe('goose in the interfaces', () => {
  it("`sessions --agent goose` lists the person's sessions with their folder, title and model", async () => {
    const run = await runCli(['sessions', '--agent', 'goose', '--all', '--json'], { env: home.env, timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    const listed = JSON.parse(run.stdout) as SessionDetail[];
    expect(listed.map((s) => s.session_id).sort()).toEqual(['20260310_1', '20260310_2', '20260310_3']);
    expect(listed.find((s) => s.session_id === '20260310_1')).toMatchObject({ agent: 'goose', cwd: '/home/dev/garden', agent_name: 'Watering schedule', model: 'gpt-4o' });
  });
});

describe('goose paths and times', () => {
  it('GOOSE_PATH_ROOT (absolute only), then XDG_DATA_HOME, then APPDATA on Windows', () => {
    expect(gooseDbPath({ HOME: '/h', GOOSE_PATH_ROOT: '/g', XDG_DATA_HOME: '/x' }, 'linux')).toBe('/g/data/sessions/sessions.db');
    expect(gooseDbPath({ HOME: '/h', GOOSE_PATH_ROOT: 'rel', XDG_DATA_HOME: '/x' }, 'linux')).toBe('/x/goose/sessions/sessions.db');
    expect(gooseDbPath({ HOME: '/h' }, 'darwin')).toBe('/h/.local/share/goose/sessions/sessions.db');
    expect(gooseDbPath({ HOME: '/h', APPDATA: '/a' }, 'win32')).toBe(path.join('/a', 'Block', 'goose', 'data', 'sessions', 'sessions.db'));
  });

  it('reads SQLite timestamps and RFC 3339 alike', () => {
    expect(gooseTimestamp('2026-03-10 10:00:00')).toBe(Date.parse('2026-03-10T10:00:00Z'));
    expect(gooseTimestamp('2026-03-10T10:00:00.5+01:00')).toBe(Date.parse('2026-03-10T09:00:00.5Z'));
    expect(gooseTimestamp('yesterday')).toBeUndefined();
  });
});
