import { mkdirSync, writeFileSync } from 'node:fs';
import { filter, firstValueFrom, Subject } from 'rxjs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionDetail, SessionEvent } from '../../../src/core/session.js';
import { crushResumeCommand } from '../../../src/sources/crush/descriptor.js';
import { makeCrushSource } from '../../../src/sources/crush/index.js';
import { crushRegistryPath } from '../../../src/sources/crush/paths.js';
import { crushProjects } from '../../../src/sources/crush/registry.js';
import { openCrushReader } from '../../../src/sources/crush/reader.js';
import { createSqlitePoller } from '../../../src/sources/sqlite/poller.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';
import { activityAt, buildFixtureDb, crushFixtureDbPath, crushFixtureProject, foldSession, forSession, ofType, waitFor } from '../sqlite/helpers.js';
import { runCli } from '../../helpers/cli.js';
import { makeCtx } from '../../helpers/source-harness.js';

const NOW = 1773137700000;
let home: TempHome;
let events: readonly SessionEvent[] = [];

beforeEach(async () => {
  home = await makeTempHome('aw-crush-');
  const file = crushFixtureDbPath(home.env);
  mkdirSync(path.dirname(file), { recursive: true });
  buildFixtureDb(file, 'crush').close();
  const poller = createSqlitePoller({ agent: 'crush', label: 'Crush', dbPath: file, openReader: openCrushReader({ project: crushFixtureProject(home.env), resumeCommand: crushResumeCommand }) });
  events = poller.poll(NOW);
  poller.close();
});
afterEach(() => home.cleanup());

describe('crush fixture database (schema of 2026-01-27)', () => {
  it('reads every session; junk parts and a part type of a later Crush are diagnostics, not errors', () => {
    expect(ofType(events, 'reset').map((e) => e.sessionId).sort()).toEqual(['crs_ask', 'crs_child', 'crs_main', 'crs_run']);
    const diagnostics = ofType(events, 'diagnostic');
    expect(diagnostics.map((d) => [d.code, d.sessionId])).toEqual([
      ['E_SCHEMA', 'crs_ask'],
      ['E_UNKNOWN_RECORD', 'crs_ask'],
    ]);
    expect(diagnostics[1]?.message).toContain('"citation"');
  });

  it('the project as cwd, title, model, tokens and its own cost (the child cost it includes left out); waiting after the answer', () => {
    const project = crushFixtureProject(home.env);
    expect(foldSession(events, 'crs_main')).toMatchObject({
      agent: 'crush',
      cwd: project,
      agentName: 'Sourdough recipe page',
      model: 'claude-sonnet-4-5',
      createdAt: 1773137000000,
      resumeCommand: `crush --cwd ${project} --session crs_main`,
      lastFileWrite: '/home/dev/bakery/src/pages/sourdough.tsx',
      tokens: { input: 12400, output: 830, cacheCreation: 0, cacheRead: 0 },
      userMessages: 1,
    });
    expect(foldSession(events, 'crs_main')?.recordedCostUsd).toBeCloseTo(0.0412, 6);
    expect(activityAt(events, 'crs_main', 1773137100000 + 30_000)).toBe('waiting');
    // While the sub-agent ran, the parent was spawning.
    expect(activityAt(events.filter((e) => !('at' in e) || (e.at ?? 0) <= 1773137060000), 'crs_main', 1773137060000)).toBe('spawning');
  });

  it('a sub-agent session is hidden under its parent, with the model it ran', () => {
    expect(foldSession(events, 'crs_child')).toMatchObject({ isSidechain: true, parentId: 'crs_main', model: 'claude-haiku-4-5', recordedCostUsd: 0.01 });
  });

  it('a summary message is a compaction, and a message still streaming with a call is that tool running', () => {
    const run = forSession(events, 'crs_run');
    expect(ofType(run, 'compaction').map((e) => [e.phase, e.at])).toEqual([
      ['start', 1773137550000],
      ['end', 1773137560000],
    ]);
    expect(ofType(run, 'turn').map((e) => e.text)).toEqual(['Run the test suite', 'Now run them again']);
    expect(activityAt(events, 'crs_run', 1773137610000)).toBe('running');
    expect(foldSession(events, 'crs_run')).toMatchObject({ model: 'gpt-5.1', tokens: { input: 5200, output: 410 } });
  });

  it('an unanswered question to the user is a wait for the user', () => {
    expect(activityAt(events, 'crs_ask', 1773137650000 + 30_000)).toBe('waiting');
  });
});

describe('crush source', () => {
  it('finds each project database through the registry, read once, and completes one-shot', async () => {
    const other = path.join(home.home, 'elsewhere');
    const registry = crushRegistryPath(home.env, 'linux');
    const project = crushFixtureProject(home.env);
    // The same project twice (a relative data folder resolves to the same database) and one never opened.
    writeFileSync(registry, JSON.stringify({ projects: [{ path: project, data_dir: '.crush' }, { path: project }, { path: other, data_dir: path.join(other, '.crush') }] }));
    expect(crushProjects(home.env, 'linux').map((p) => p.dbPath)).toEqual([path.join(project, '.crush', 'crush.db'), path.join(other, '.crush', 'crush.db')]);
    const seen: SessionEvent[] = [];
    let done = false;
    makeCrushSource({ intervalMs: 50 })(makeCtx(home.env, { now: () => NOW, watch: false })).subscribe({ next: (e) => seen.push(e), complete: () => (done = true) });
    await waitFor(() => done, 'crush one-shot');
    expect(new Set(ofType(seen, 'reset').map((e) => e.sessionId))).toEqual(new Set(['crs_main', 'crs_child', 'crs_run', 'crs_ask']));
    expect(ofType(seen, 'ready')).toHaveLength(1);
  });

  it('while watching, a project registered later is read from then on (no second ready)', async () => {
    const registry = crushRegistryPath(home.env, 'linux');
    writeFileSync(registry, JSON.stringify({ projects: [] }));
    const events: SessionEvent[] = [];
    const arrived = new Subject<void>();
    const until = (wanted: (event: SessionEvent) => boolean): Promise<unknown> =>
      events.some(wanted) ? Promise.resolve() : firstValueFrom(arrived.pipe(filter(() => events.some(wanted))));
    const subscription = makeCrushSource({ intervalMs: 40 })(makeCtx(home.env)).subscribe((event) => {
      events.push(event);
      arrived.next();
    });
    try {
      await until((e) => e.type === 'ready');
      expect(ofType(events, 'reset')).toEqual([]);
      // Crush started in the project: the registry names it.
      crushFixtureDbPath(home.env);
      await until((e) => e.type === 'reset' && e.sessionId === 'crs_main');
    } finally {
      subscription.unsubscribe();
    }
    expect(ofType(events, 'ready')).toEqual([{ type: 'ready', agent: 'crush' }]);
  });

  it("`sessions --agent crush` lists the project's sessions with their folder, title and model", async () => {
    const run = await runCli(['sessions', '--agent', 'crush', '--all', '--json'], { env: home.env, timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    const listed = JSON.parse(run.stdout) as SessionDetail[];
    expect(listed.map((s) => s.session_id).sort()).toEqual(['crs_ask', 'crs_main', 'crs_run']);
    expect(listed.find((s) => s.session_id === 'crs_main')).toMatchObject({ agent: 'crush', cwd: crushFixtureProject(home.env), agent_name: 'Sourdough recipe page', model: 'claude-sonnet-4-5' });
  });

  it('no registry: ready at once with no session', async () => {
    const empty = await makeTempHome('aw-crush-empty-');
    try {
      const seen: SessionEvent[] = [];
      let done = false;
      makeCrushSource()(makeCtx(empty.env, { watch: false })).subscribe({ next: (e) => seen.push(e), complete: () => (done = true) });
      await waitFor(() => done, 'crush one-shot');
      expect(seen).toEqual([{ type: 'ready', agent: 'crush' }]);
    } finally {
      await empty.cleanup();
    }
  });

  it('the registry: CRUSH_GLOBAL_DATA, then XDG_DATA_HOME, then LOCALAPPDATA on Windows and ~/.local/share elsewhere', () => {
    expect(crushRegistryPath({ HOME: '/h', CRUSH_GLOBAL_DATA: '/g', XDG_DATA_HOME: '/x' }, 'linux')).toBe('/g/projects.json');
    expect(crushRegistryPath({ HOME: '/h', XDG_DATA_HOME: '/x' }, 'linux')).toBe('/x/crush/projects.json');
    expect(crushRegistryPath({ HOME: '/h' }, 'darwin')).toBe('/h/.local/share/crush/projects.json');
    expect(crushRegistryPath({ HOME: '/h', LOCALAPPDATA: '/l' }, 'win32')).toBe(path.join('/l', 'crush', 'projects.json'));
  });

  it('resume quotes a project path that needs it', () => {
    expect(crushResumeCommand("/w/it's here", 'id1')).toBe(`crush --cwd '/w/it'\\''s here' --session id1`);
  });
});
