import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionDetail } from '../../../src/core/session.js';
import { createPiParser } from '../../../src/sources/pi/parse.js';
import { classifyPiFile, ompSessionsDir, piSessionDirs, piSessionsDir } from '../../../src/sources/pi/paths.js';
import { runCli } from '../../helpers/cli.js';
import { diagnosticsOf, FIXTURES, foldById, installFixture, parseFile } from '../../helpers/source-harness.js';
import { makeTempHome } from '../../helpers/temp-home.js';

const SESSIONS = path.join(FIXTURES, 'pi/.pi/agent/sessions');
const PID = '2026-03-10T09-30-00-123Z_1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d';
const MAIN = path.join(SESSIONS, '--home-dev-notes--', `${PID}.jsonl`);

describe('pi parser (pure)', () => {
  it('folds a session: file-stem id, cwd, model, name, tools by id, usage with recorded cost, compaction', async () => {
    const events = await parseFile(createPiParser(MAIN, { kind: 'main', sessionId: PID }, false), MAIN);
    const state = foldById(events).get(PID);
    expect(state).toMatchObject({
      cwd: '/home/dev/notes',
      model: 'claude-sonnet-4-5',
      agentName: 'Rename todo file',
      resumeCommand: `pi --session ${PID}`,
      userMessages: 1,
      assistantMessages: 3,
      lastFileWrite: '/home/dev/notes/README.md',
      compactionStartedAt: Date.parse('2026-03-10T09:50:00.000Z'),
      lastTurn: 'assistant',
      pendingTools: [],
      createdAt: Date.parse('2026-03-10T09:30:00.123Z'),
    });
    expect(state?.tokens).toEqual({ input: 1520 + 40 + 10, output: 64 + 58 + 12, cacheCreation: 1400, cacheRead: 2920 + 3000 });
    expect(state?.recordedCostUsd).toBeCloseTo(0.01077 + 0.001866 + 0.001, 9);
    expect(diagnosticsOf(events).map((d) => d.code)).toEqual(['E_JUNK_LINE']);
  });

  it("Oh My Pi: a title slot line before the session header is the title, over the header's own; title_change renames", async () => {
    const omp = path.join(FIXTURES, 'pi/omp/--home-dev-web--/2026-03-10T10-00-00-000Z_6c7d8e9f-0a1b-4c2d-9e3f-4a5b6c7d8e9f.jsonl');
    const id = path.basename(omp, '.jsonl');
    const events = await parseFile(createPiParser(omp, { kind: 'main', sessionId: id }, false), omp);
    expect(foldById(events).get(id)).toMatchObject({
      agentName: 'Fix flaky login test',
      cwd: '/home/dev/web',
      createdAt: Date.parse('2026-03-10T10:00:00.000Z'),
      userMessages: 1,
      assistantMessages: 1,
    });
    expect(diagnosticsOf(events)).toEqual([]);
    // The header alone names the title it was made from the first prompt; a rename outranks it.
    const parser = createPiParser(omp, { kind: 'main', sessionId: id }, false);
    const header = JSON.stringify({ type: 'session', version: 3, id: 'x', title: 'Login test flakes on CI', timestamp: '2026-03-10T10:00:00.000Z', cwd: '/w' });
    const rename = JSON.stringify({ type: 'title_change', id: 'r', timestamp: '2026-03-10T10:01:00.000Z', title: 'Renamed' });
    const named = [...parser.start(), ...parser.line(Buffer.from(header))];
    expect(foldById(named).get(id)?.agentName).toBe('Login test flakes on CI');
    expect(foldById([...named, ...parser.line(Buffer.from(rename))]).get(id)?.agentName).toBe('Renamed');
  });

  it('treats subagent-artifacts transcripts as hidden sidechains and ignores other files', async () => {
    const sub = path.join(SESSIONS, '--home-dev-notes--', 'subagent-artifacts', '5f316403_worker.jsonl');
    const kind = classifyPiFile(SESSIONS, sub);
    expect(kind).toEqual({ kind: 'subagent', sessionId: '5f316403_worker' });
    const state = foldById(await parseFile(createPiParser(sub, kind!, false), sub)).get('5f316403_worker');
    expect(state).toMatchObject({ isSidechain: true, resumeCommand: '', userMessages: 1 });
    expect(classifyPiFile(SESSIONS, path.join(SESSIONS, '--x--', 'subagent-artifacts', 'a_input.md'))).toBeUndefined();
    expect(classifyPiFile(SESSIONS, path.join(SESSIONS, '--x--', 'deeper', 'x', 'a.jsonl'))).toBeUndefined();
  });

  it('honours PI_CODING_AGENT_DIR', () => {
    expect(piSessionsDir({ HOME: '/h' })).toBe('/h/.pi/agent/sessions');
    expect(piSessionsDir({ HOME: '/h', PI_CODING_AGENT_DIR: '/p' })).toBe('/p/sessions');
  });
});

describe('pi 0.8x usage beyond answers', () => {
  it('counts what compaction, branch summaries and a tool that ran a model cost; a summary without usage adds nothing', async () => {
    const id = '2026-08-03T09-00-00-000Z_7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d';
    const file = path.join(FIXTURES, 'pi/versions', `${id}.jsonl`);
    const events = await parseFile(createPiParser(file, { kind: 'main', sessionId: id }, false), file);
    const state = foldById(events).get(id);
    // answer + tool result + compaction + branch summary + answer
    expect(state?.tokens).toEqual({ input: 1000 + 400 + 2000 + 500 + 10, output: 50 + 30 + 300 + 100 + 12, cacheCreation: 800, cacheRead: 100 + 3000 });
    expect(state?.recordedCostUsd).toBeCloseTo(0.00675 + 0.00168 + 0.0105 + 0.003 + 0.00111, 9);
    expect(state).toMatchObject({ userMessages: 1, assistantMessages: 2, lastTurn: 'assistant', pendingTools: [] });
    expect(diagnosticsOf(events)).toEqual([]);
  });
});

describe('a session directory pi was told to use', () => {
  it('is $PI_CODING_AGENT_SESSION_DIR, else sessionDir of the global settings.json (absolute or ~/)', async () => {
    const { piCustomSessionsDir } = await import('../../../src/sources/pi/paths.js');
    expect(piCustomSessionsDir({ HOME: '/h' }, undefined)).toBeUndefined();
    expect(piCustomSessionsDir({ HOME: '/h', PI_CODING_AGENT_SESSION_DIR: '/s' }, '{"sessionDir":"/other"}')).toBe('/s');
    expect(piCustomSessionsDir({ HOME: '/h', PI_CODING_AGENT_SESSION_DIR: '~/pi-sessions' }, undefined)).toBe('/h/pi-sessions');
    expect(piCustomSessionsDir({ HOME: '/h' }, '{"sessionDir":"~/work/sessions","theme":"dark"}')).toBe('/h/work/sessions');
    expect(piCustomSessionsDir({ HOME: '/h' }, '{"sessionDir":"/abs/./sessions"}')).toBe('/abs/sessions');
    expect(piCustomSessionsDir({ HOME: '/h' }, '{"sessionDir":"relative"}')).toBeUndefined();
    expect(piCustomSessionsDir({ HOME: '/h' }, '{"sessionDir":42}')).toBeUndefined();
    expect(piCustomSessionsDir({ HOME: '/h' }, 'not json')).toBeUndefined();
  });

  it('keeps its session files flat: only .jsonl files directly in it are sessions', () => {
    expect(classifyPiFile('/s', '/s/2026-08-03T09-00-00-000Z_7a8b.jsonl', true)).toEqual({ kind: 'main', sessionId: '2026-08-03T09-00-00-000Z_7a8b' });
    expect(classifyPiFile('/s', '/s/--x--/a.jsonl', true)).toBeUndefined();
    expect(classifyPiFile('/s', '/s/a.json', true)).toBeUndefined();
  });

  it('`agentwatch sessions` lists the sessions of a custom directory beside those of the default one', async () => {
    const home = await makeTempHome('agentwatch-pi-custom-');
    try {
      await installFixture('pi', home.home);
      const custom = path.join(home.root, 'pi-sessions');
      await mkdir(custom, { recursive: true });
      const id = '2026-08-03T09-00-00-000Z_7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d';
      await copyFile(path.join(FIXTURES, 'pi/versions', `${id}.jsonl`), path.join(custom, `${id}.jsonl`));
      await writeFile(path.join(home.home, '.pi', 'agent', 'settings.json'), JSON.stringify({ sessionDir: custom }));
      const run = await runCli(['sessions', '--agent', 'pi', '--all', '--json'], { env: home.env, timeoutMs: 30_000 });
      expect(run.code).toBe(0);
      const listed = JSON.parse(run.stdout) as SessionDetail[];
      expect(listed.map((s) => s.session_id)).toContain(id);
      expect(listed.map((s) => s.session_id)).toContain(PID);
      expect(listed.find((s) => s.session_id === id)).toMatchObject({ cwd: '/home/dev/shop', resume_command: `pi --session ${id}` });
    } finally {
      await home.cleanup();
    }
  }, 60_000);
});

describe("Oh My Pi's own tree", () => {
  const OMP_ID = '2026-11-04T08-00-00-000Z_3e4f5a6b-7c8d-4e9f-a0b1-c2d3e4f5a6b7';

  it('is ~/.omp/agent/sessions, moved by PI_CONFIG_DIR, a profile and an XDG data folder that exists; PI_CODING_AGENT_DIR is pi\'s', async () => {
    expect(ompSessionsDir({ HOME: '/h' })).toBe('/h/.omp/agent/sessions');
    expect(ompSessionsDir({ HOME: '/h', PI_CONFIG_DIR: '.omp-dev' })).toBe('/h/.omp-dev/agent/sessions');
    expect(ompSessionsDir({ HOME: '/h', OMP_PROFILE: 'work' })).toBe('/h/.omp/profiles/work/agent/sessions');
    expect(ompSessionsDir({ HOME: '/h', PI_PROFILE: 'work' })).toBe('/h/.omp/profiles/work/agent/sessions');
    expect(ompSessionsDir({ HOME: '/h', OMP_PROFILE: '', PI_PROFILE: 'work' })).toBe('/h/.omp/agent/sessions');
    expect(ompSessionsDir({ HOME: '/h', OMP_PROFILE: 'default' })).toBe('/h/.omp/agent/sessions');
    expect(ompSessionsDir({ HOME: '/h', OMP_PROFILE: 'Not Valid' })).toBe('/h/.omp/agent/sessions');
    expect(ompSessionsDir({ HOME: '/h', PI_CODING_AGENT_DIR: '/p' })).toBeUndefined();
    expect(piSessionDirs({ HOME: '/h' })).toEqual(['/h/.pi/agent/sessions', '/h/.omp/agent/sessions']);
    const home = await makeTempHome('agentwatch-omp-xdg-');
    try {
      const xdg = path.join(home.root, 'data');
      expect(ompSessionsDir({ HOME: home.home, XDG_DATA_HOME: xdg })).toBe(path.join(home.home, '.omp/agent/sessions'));
      await mkdir(path.join(xdg, 'omp'), { recursive: true });
      expect(ompSessionsDir({ HOME: home.home, XDG_DATA_HOME: xdg })).toBe(path.join(xdg, 'omp/sessions'));
      expect(ompSessionsDir({ HOME: home.home, XDG_DATA_HOME: xdg, OMP_PROFILE: 'work' })).toBe(path.join(home.home, '.omp/profiles/work/agent/sessions'));
    } finally {
      await home.cleanup();
    }
  });

  it('`agentwatch sessions` lists a session of ~/.omp/agent/sessions in a folder named after the cwd below the home', async () => {
    const home = await makeTempHome('agentwatch-omp-');
    try {
      const sessions = path.join(home.home, '.omp', 'agent', 'sessions');
      for (const folder of ['-src-api', 'home-api-0f1e2d3c4b5a69788796a5b4c3d2e1f0']) {
        await mkdir(path.join(sessions, folder), { recursive: true });
      }
      await copyFile(path.join(FIXTURES, 'pi/omp-home/-src-api', `${OMP_ID}.jsonl`), path.join(sessions, '-src-api', `${OMP_ID}.jsonl`));
      const hashedId = OMP_ID.replace('3e4f5a6b', '4f5a6b7c');
      await copyFile(path.join(FIXTURES, 'pi/omp-home/-src-api', `${OMP_ID}.jsonl`), path.join(sessions, 'home-api-0f1e2d3c4b5a69788796a5b4c3d2e1f0', `${hashedId}.jsonl`));
      const run = await runCli(['sessions', '--agent', 'pi', '--all', '--json'], { env: home.env, timeoutMs: 30_000 });
      expect(run.code).toBe(0);
      const listed = JSON.parse(run.stdout) as SessionDetail[];
      expect(listed.map((s) => s.session_id).sort()).toEqual([OMP_ID, hashedId].sort());
      expect(listed.find((s) => s.session_id === OMP_ID)).toMatchObject({
        cwd: '/home/dev/src/api',
        model: 'claude-sonnet-4-5',
        display_name: 'Paginate the orders endpoint',
        input_tokens: 1200,
        output_tokens: 60,
        cost_usd: 0.0045,
        resume_command: `pi --session ${OMP_ID}`,
      });
    } finally {
      await home.cleanup();
    }
  }, 60_000);
});
