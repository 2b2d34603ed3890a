import { cp, mkdir, readdir, writeFile, chmod } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { isAgentKind } from '../../src/core/agents.js';
import type { DoctorReport } from '../../src/doctor/report.js';
import { cursorDbPath } from '../../src/sources/cursor/paths.js';
import { gooseDbPath } from '../../src/sources/goose/paths.js';
import { kiloDbPath } from '../../src/sources/kilo/paths.js';
import { opencodeDbPath } from '../../src/sources/opencode/paths.js';
import { runCli } from '../helpers/cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { canDropPrivileges, giveToNobody, runCliUnprivileged } from '../reliability/helpers/unprivileged.js';
import { buildFixtureDb, crushFixtureDbPath, type SqliteFixture } from '../sources/sqlite/helpers.js';

/** `agentwatch doctor` as a user runs it: the built CLI on a temp HOME. */
const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const DB_PATHS: Readonly<Record<SqliteFixture, (env: Record<string, string>) => string>> = {
  opencode: (env) => opencodeDbPath(env),
  kilo: (env) => kiloDbPath(env),
  cursor: (env) => cursorDbPath(env, 'linux'),
  crush: (env) => crushFixtureDbPath(env),
  goose: (env) => gooseDbPath(env, 'linux'),
};

let home: TempHome | undefined;
afterEach(async () => {
  await home?.cleanup();
  home = undefined;
});

const fresh = async (): Promise<TempHome> => {
  home = await makeTempHome('agentwatch-doctor-');
  return home;
};

const installAll = async (t: TempHome): Promise<void> => {
  for (const name of await readdir(FIXTURES)) {
    if (!isAgentKind(name)) continue;
    if (name in DB_PATHS) {
      const file = DB_PATHS[name as SqliteFixture](t.env);
      await mkdir(path.dirname(file), { recursive: true });
      buildFixtureDb(file, name as SqliteFixture).close();
    } else await cp(path.join(FIXTURES, name), t.home, { recursive: true });
  }
};

const doctorJson = async (t: TempHome): Promise<{ code: number | null; report: DoctorReport }> => {
  const run = await runCli(['doctor', '--json'], { env: t.env, timeoutMs: 60_000 });
  return { code: run.code, report: JSON.parse(run.stdout) as DoctorReport };
};

// Each case runs a full discovery of the fixtures in a spawned CLI: room on a busy 2-core runner.
describe('agentwatch doctor', { timeout: 90_000 }, () => {
  it('on an empty HOME: every agent with where it looked, no agent data said with how to point at it, exit 1, nothing written', async () => {
    const t = await fresh();
    const { code, report } = await doctorJson(t);
    expect(code).toBe(1);
    expect(report.healthy).toBe(false);
    expect(report.problems).toEqual([expect.stringMatching(/^no agent data: no agent has written a session where agentwatch looks .*CLAUDE_CONFIG_DIR, CODEX_HOME/)]);
    expect(report.agents.map((a) => a.agent)).toEqual(['amp', 'claude', 'codex', 'copilot', 'crush', 'cursor', 'droid', 'gemini', 'goose', 'grok', 'kilo', 'kimi', 'opencode', 'pi', 'qwen']);
    expect(report.agents.find((a) => a.agent === 'claude')?.locations).toEqual([{ path: path.join(t.home, '.claude', 'projects'), state: 'missing' }]);
    expect(await readdir(t.home)).toEqual([]);
    const text = await runCli(['doctor'], { env: t.env, timeoutMs: 60_000 });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('1 problem needs your attention:\n  - no agent data: ');
    expect(text.stdout).not.toContain('Healthy');
    // sessions --all looked everywhere: it says so, and where to learn more.
    const all = await runCli(['sessions', '--all'], { env: t.env, timeoutMs: 60_000 });
    expect(all.stdout).toContain('No agent has written a session anywhere agentwatch looks. Data kept elsewhere: agentwatch doctor says how to point agentwatch at it.');
    expect(all.stdout).not.toContain('here yet');
  });

  it('on the corpus of every agent: sessions, files and versions per agent; junk lines with file and line', async () => {
    const t = await fresh();
    await installAll(t);
    const { report } = await doctorJson(t);
    const claude = report.agents.find((a) => a.agent === 'claude');
    expect(claude?.sessions).toBeGreaterThan(0);
    expect(claude?.versions).toContain('2.0.31');
    for (const agent of ['amp', 'claude', 'codex', 'copilot', 'crush', 'droid', 'gemini', 'goose', 'grok', 'kilo', 'kimi', 'opencode', 'pi', 'qwen']) {
      expect(report.agents.find((a) => a.agent === agent)?.sessions, agent).toBeGreaterThan(0);
    }
    const junk = report.agents.flatMap((a) => a.diagnostics.filter((d) => d.name === 'junk_line'));
    expect(junk.length).toBeGreaterThan(0);
    for (const d of junk) expect(d.path).toMatch(/\.jsonl?$/);
    // Line-based transcripts name the line.
    const inJsonl = junk.filter((d) => d.path?.endsWith('.jsonl'));
    expect(inJsonl.length).toBeGreaterThan(0);
    for (const d of inJsonl) expect(d.line).toBeGreaterThan(0);
    // Junk inside readable transcripts is worth knowing, not a problem to fix.
    expect(report.problems.filter((p) => p.includes('junk'))).toEqual([]);
  });

  it('a HOME with junk, a locked database and a file where a directory belongs: exit 1 naming each', async () => {
    const t = await fresh();
    await installAll(t);
    // ~/.codex/sessions is a file: codex sessions cannot be read.
    await cp(path.join(FIXTURES, 'codex'), path.join(t.root, 'spare'), { recursive: true });
    await mkdir(path.join(t.home, '.codex'), { recursive: true });
    await import('node:fs/promises').then((fs) => fs.rm(path.join(t.home, '.codex', 'sessions'), { recursive: true, force: true }));
    await writeFile(path.join(t.home, '.codex', 'sessions'), 'not a directory\n');
    // kilo's database held under an exclusive lock by another process (here: this test).
    const lock = new Database(kiloDbPath(t.env));
    lock.pragma('journal_mode = DELETE');
    lock.exec('BEGIN EXCLUSIVE');
    try {
      const { code, report } = await doctorJson(t);
      expect(code).toBe(1);
      expect(report.healthy).toBe(false);
      expect(report.problems.some((p) => p.startsWith('codex:') && p.includes('wrong type'))).toBe(true);
      expect(report.problems.some((p) => p.startsWith('kilo:') && /lock/i.test(p))).toBe(true);
      expect(report.agents.find((a) => a.agent === 'kilo')?.diagnostics.map((d) => d.name)).toContain('db_locked');
    } finally {
      lock.exec('ROLLBACK');
      lock.close();
    }
  });

  it.skipIf(!canDropPrivileges())('an unreadable agent directory is a problem in doctor and on the stderr of sessions (as an ordinary user)', async () => {
    const t = await fresh();
    await cp(path.join(FIXTURES, 'claude'), t.home, { recursive: true });
    const projects = path.join(t.home, '.claude', 'projects');
    await giveToNobody(t.root);
    await chmod(projects, 0o000);
    const env = { ...t.env, HOME: t.home };
    const doctor = await runCliUnprivileged(['doctor', '--json'], env, 60_000);
    const report = JSON.parse(doctor.stdout) as DoctorReport;
    expect(doctor.code).toBe(1);
    expect(report.agents.find((a) => a.agent === 'claude')?.locations[0]).toMatchObject({ path: projects, state: 'unreadable' });
    const sessions = await runCliUnprivileged(['sessions', '--all'], env, 60_000);
    expect(sessions.code).toBe(0);
    expect(sessions.stderr).toContain(`claude: cannot read directory ${projects}: EACCES`);
    expect(sessions.stderr).toContain('agentwatch doctor');
  });

  it('config typos: unknown keys with the closest known key, exit 1, the file left as it is', async () => {
    const t = await fresh();
    const file = path.join(t.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json');
    await mkdir(path.dirname(file), { recursive: true });
    const text = `${JSON.stringify({ window_minuts: 60, agents: { claud: false } }, null, 2)}\n`;
    await writeFile(file, text);
    const { code, report } = await doctorJson(t);
    expect(code).toBe(1);
    expect(report.config.unknown_keys).toEqual([
      { path: 'window_minuts', key: 'window_minuts', suggestion: 'window_minutes' },
      { path: 'agents.claud', key: 'claud', suggestion: 'agents.claude' },
    ]);
    expect(await import('node:fs/promises').then((fs) => fs.readFile(file, 'utf8'))).toBe(text);
  });

  it('a claude_dirs entry without projects/ (or that does not exist) is a config problem, not an agent that is not installed', async () => {
    const t = await fresh();
    const file = path.join(t.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json');
    const good = path.join(t.home, 'work-claude');
    const bare = path.join(t.home, 'bare-claude');
    const gone = path.join(t.home, 'no-such-dir');
    await mkdir(path.join(good, 'projects'), { recursive: true });
    await mkdir(bare, { recursive: true });
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ claude_dirs: [good, bare, gone] }));
    const { code, report } = await doctorJson(t);
    expect(code).toBe(1);
    expect(report.agents.find((a) => a.agent === 'claude')?.locations).toEqual([
      { path: path.join(good, 'projects'), state: 'found', config_entry: `claude_dirs: ${good}` },
      { path: path.join(bare, 'projects'), state: 'missing', detail: `the claude_dirs entry ${bare} has no projects/ folder; each entry must contain one`, config_entry: `claude_dirs: ${bare}` },
      { path: path.join(gone, 'projects'), state: 'missing', detail: `the claude_dirs entry ${gone} does not exist`, config_entry: `claude_dirs: ${gone}` },
    ]);
    expect(report.problems).toEqual([
      `config: the claude_dirs entry ${bare} has no projects/ folder; each entry must contain one`,
      `config: the claude_dirs entry ${gone} does not exist`,
    ]);
    const human = await runCli(['doctor'], { env: t.env, timeoutMs: 60_000 });
    expect(human.code).toBe(1);
    expect(human.stdout).toContain(`looked in ${path.join(bare, 'projects')}: NOT FOUND (the claude_dirs entry ${bare} has no projects/ folder; each entry must contain one)`);
  });

  it('every diagnostic is listed with its line, in the text as in --json (53 junk lines: 53 listed, none cut off)', async () => {
    const t = await fresh();
    const project = path.join(t.home, '.claude', 'projects', '-home-dev-noisy');
    await mkdir(project, { recursive: true });
    const first = JSON.stringify({ type: 'user', cwd: '/home/dev/noisy', sessionId: 'a0000000-0000-4000-8000-000000000001', version: '2.0.31', message: { role: 'user', content: 'hello' }, timestamp: '2026-03-10T09:00:00.000Z' });
    const file = path.join(project, 'a0000000-0000-4000-8000-000000000001.jsonl');
    await writeFile(file, `${first}\n${'not json {\n'.repeat(53)}`);
    const { report } = await doctorJson(t);
    const claude = report.agents.find((a) => a.agent === 'claude');
    const junkLines = Array.from({ length: 53 }, (_, i) => i + 2);
    expect(claude?.diagnostic_counts).toEqual({ junk_line: 53 });
    expect(claude?.diagnostics.map((d) => [d.name, d.path, d.line])).toEqual(junkLines.map((line) => ['junk_line', file, line]));
    const text = await runCli(['doctor'], { env: t.env, timeoutMs: 60_000 });
    const listed = text.stdout.split('\n').filter((line) => line.startsWith(`    - junk_line: ${file}:`));
    expect(listed.map((line) => Number(line.slice(`    - junk_line: ${file}:`.length).split(':')[0]))).toEqual(junkLines);
    expect(text.stdout).not.toContain('more, counted above');
    // The help names the words the report uses for each place.
    expect((await runCli(['doctor', '--help'], { env: t.env })).stdout).toContain('the places looked in (ok, not found, unreadable, wrong type)');
    expect(text.stdout).toContain(`looked in ${path.join(t.home, '.claude', 'projects')}: ok\n`);
  });

  it('transcripts of other agent versions: unknown records counted per agent version with file and line, not a problem', async () => {
    const t = await fresh();
    const project = path.join(t.home, '.claude', 'projects', '-home-dev-uploader');
    await mkdir(project, { recursive: true });
    await cp(path.join(FIXTURES, 'claude', 'versions', '2.1.230-ai-title-compact-boundary.jsonl'), path.join(project, '7c2e9d41-5b3a-4e8f-9a10-2d4c6b8e0f13.jsonl'));
    await cp(path.join(FIXTURES, 'kimi', 'versions', '1.5-turn-ended'), t.home, { recursive: true });
    const { code, report } = await doctorJson(t);
    expect(code).toBe(0);
    const claude = report.agents.find((a) => a.agent === 'claude');
    expect(claude).toMatchObject({ sessions: 1, versions: ['2.1.230'], diagnostic_counts_by_version: { '2.1.230': { unknown_record: 2 } } });
    expect(claude?.diagnostics.map((d) => [d.name, d.line, d.version])).toEqual([
      ['unknown_record', 6, '2.1.230'],
      ['unknown_record', 8, '2.1.230'],
    ]);
    const kimi = report.agents.find((a) => a.agent === 'kimi');
    expect(kimi).toMatchObject({ sessions: 1, versions: ['1.5'], diagnostic_counts_by_version: { '1.5': { unknown_record: 2 } } });
    const text = await runCli(['doctor'], { env: t.env, timeoutMs: 60_000 });
    expect(text.stdout).toContain('written by claude 2.1.230: 2 unknown_record');
    expect(text.stdout).toMatch(/unknown_record: .*7c2e9d41-5b3a-4e8f-9a10-2d4c6b8e0f13\.jsonl:6: record type "future-record"/);
  });

  it('a newer agent version whose files hold unknown record types: said, with counts, an example file:line and the session', async () => {
    const t = await fresh();
    const day = path.join(t.home, '.codex', 'sessions', '2027', '01', '12');
    await mkdir(day, { recursive: true });
    const thread = '019fa0b0-1111-7222-8333-94445555aaaa';
    const file = path.join(day, `rollout-2027-01-12T09-00-00-${thread}.jsonl`);
    await cp(path.join(FIXTURES, 'codex', 'versions', '0.170-unknown-records.jsonl'), file);
    const { code, report } = await doctorJson(t);
    expect(code).toBe(0);
    const codex = report.agents.find((a) => a.agent === 'codex');
    expect(codex?.drift.seen_versions).toEqual([{ version: '0.170.0', sessions: 1, newer: true }]);
    expect(codex?.drift.unknown_records).toEqual([
      {
        version: '0.170.0',
        newer: true,
        kinds: [
          { kind: 'record type "turn_plan"', files: 1 },
          { kind: 'record type "usage_ledger"', files: 1 },
        ],
        example: `${file}:4`,
        sessions: [thread],
      },
    ]);
    const text = await runCli(['doctor'], { env: t.env, timeoutMs: 60_000 });
    expect(text.stdout).toContain(`  ! codex 0.170.0, newer than checked, writes records this reader does not know: record type "turn_plan" (1 file), record type "usage_ledger" (1 file); e.g. ${file}:4\n`);
    expect(text.stdout).toContain(`    sessions that may be shown incomplete: ${thread}\n`);
  });
});
