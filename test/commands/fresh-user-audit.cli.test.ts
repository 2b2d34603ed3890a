import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_KINDS } from '../../src/core/agents.js';
import type { DoctorReport } from '../../src/doctor/report.js';
import { deriveToken } from '../../src/sinks/http/token.js';
import { opencodeDbPath } from '../../src/sources/opencode/paths.js';
import { runCli } from '../helpers/cli.js';
import { runInPty } from '../helpers/pty.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * What a fresh user met (an audit): configuration mistakes said where they are made, in words
 * that lead to the fix, by the built CLI on a temp HOME. Needs `npm run build` first.
 */
let home: TempHome | undefined;
afterEach(async () => {
  await home?.cleanup();
  home = undefined;
});

const fresh = async (config?: unknown): Promise<{ t: TempHome; file: string }> => {
  home = await makeTempHome('agentwatch-audit-');
  const file = path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json');
  if (config !== undefined) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, typeof config === 'string' ? config : JSON.stringify(config));
  }
  return { t: home, file };
};

describe('a stored api_passphrase shorter than 12 characters', { timeout: 60_000 }, () => {
  const SHORT = { api_passphrase: 'short', api_salt: 'kept-salt', window_minutes: 45, my_own_key: true };

  it('stops the commands that load the config: exit 1, "at least 12 characters", the field named once, how to fix it', async () => {
    const { t, file } = await fresh(SHORT);
    const text = await readFile(file, 'utf8');
    const run = await runCli(['sessions', '--all'], { env: t.env });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `agentwatch: ${file}: invalid configuration: api_passphrase must be at least 12 characters; run agentwatch passphrase to set a new one, or edit the file, or set AGENTWATCH_API_PASSPHRASE (which overrides it)\n`,
    );
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('is irrelevant while a valid AGENTWATCH_API_PASSPHRASE overrides it: the command runs and warns; the file keeps it', async () => {
    const { t, file } = await fresh(SHORT);
    const env = { ...t.env, AGENTWATCH_API_PASSPHRASE: 'the override passphrase' };
    const run = await runCli(['sessions', '--all', '--json'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('[]\n');
    expect(run.stderr).toContain(`agentwatch: ${file}: api_passphrase is shorter than 12 characters; it is not used while AGENTWATCH_API_PASSPHRASE overrides it (agentwatch passphrase sets a new one)\n`);
    const show = await runCli(['passphrase', '--show'], { env });
    expect(show.code).toBe(0);
    expect(show.stdout).toBe(`${await deriveToken('the override passphrase', 'kept-salt')}\n`);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ api_passphrase: 'short' });
  });

  it('passphrase --show says the stored one gives no token (exit 1); agentwatch passphrase replaces it', async () => {
    const { t, file } = await fresh(SHORT);
    const show = await runCli(['passphrase', '--show'], { env: t.env });
    expect(show.code).toBe(1);
    expect(show.stdout).toBe('');
    expect(show.stderr.trimEnd().split('\n').at(-1)).toBe(
      `agentwatch: ${file}: api_passphrase must be at least 12 characters, so it gives no token to show; run agentwatch passphrase to set a new one (or set AGENTWATCH_API_PASSPHRASE, which overrides it)`,
    );
    const set = await runInPty(['passphrase'], t.env, [
      { after: /New API passphrase/, send: 'a brand new passphrase\r' },
      { after: /Repeat the passphrase/, send: 'a brand new passphrase\r' },
    ]);
    expect(set.code, set.output).toBe(0);
    expect(set.output).toContain(`the api_passphrase in ${file} is shorter than 12 characters; the one you enter now replaces it`);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ api_passphrase: 'a brand new passphrase', api_salt: 'kept-salt', window_minutes: 45, my_own_key: true });
    expect((await runCli(['sessions', '--all', '--json'], { env: t.env })).code).toBe(0);
  });

  it('doctor reports it as the other commands refuse it, and still looks where the config says', async () => {
    const { t, file } = await fresh({ ...SHORT, agents: { codex: false } });
    const run = await runCli(['doctor', '--json'], { env: t.env, timeoutMs: 60_000 });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as DoctorReport;
    expect(report.config).toMatchObject({ valid: false, error: expect.stringContaining(`${file}: invalid configuration: api_passphrase must be at least 12 characters; run agentwatch passphrase`) });
    expect(report.agents.find((a) => a.agent === 'codex')?.enabled).toBe(false);
    expect(report.problems.filter((p) => p.includes('12 characters'))).toHaveLength(1);
  });
});

describe('"api_salt": "" is replaced, and said', () => {
  it('one stderr line saying what and why, once', async () => {
    const { t, file } = await fresh({ api_salt: '', api_passphrase: 'a long enough passphrase' });
    const first = await runCli(['sessions', '--all', '--json'], { env: t.env });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`agentwatch: ${file}: api_salt was empty: generated a new salt and saved it in the file (the API token is derived from it, so tokens made with another salt no longer work; agentwatch passphrase --show prints the current one)\n`);
    expect((JSON.parse(await readFile(file, 'utf8')) as { api_salt: string }).api_salt).not.toBe('');
    const second = await runCli(['sessions', '--all', '--json'], { env: t.env });
    expect(second.stderr).not.toContain('api_salt');
  });

  it('passphrase --show, which needs the salt, says it too', async () => {
    const { t, file } = await fresh({ api_salt: '', api_passphrase: 'a long enough passphrase' });
    const show = await runCli(['passphrase', '--show'], { env: t.env });
    expect(show.code).toBe(0);
    const salt = (JSON.parse(await readFile(file, 'utf8')) as { api_salt: string }).api_salt;
    expect(show.stdout).toBe(`${await deriveToken('a long enough passphrase', salt)}\n`);
    expect(show.stderr).toContain('api_salt was empty: generated a new salt');
  });
});

describe('sessions says the configuration mistakes that keep sessions from being read', { timeout: 60_000 }, () => {
  it('a claude_dirs entry that does not exist, or has no projects/: one stderr line each', async () => {
    const { t, file } = await fresh();
    const bare = path.join(t.home, 'bare-claude');
    await mkdir(bare, { recursive: true });
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ claude_dirs: ['/nonexistent', bare] }));
    const run = await runCli(['sessions', '--all'], { env: t.env });
    expect(run.code).toBe(0);
    expect(run.stderr.split('\n')).toEqual([
      'agentwatch: config: the claude_dirs entry /nonexistent does not exist',
      `agentwatch: config: the claude_dirs entry ${bare} has no projects/ folder; each entry must contain one`,
      'agentwatch: run agentwatch doctor for details',
      '',
    ]);
  });

  it('a file where an agent directory belongs: said with the place, not only "Looked in"', async () => {
    const { t } = await fresh();
    await mkdir(path.join(t.home, '.grok'), { recursive: true });
    await writeFile(path.join(t.home, '.grok', 'sessions'), 'not a directory\n');
    const run = await runCli(['sessions', '--agent', 'grok'], { env: t.env });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      `agentwatch: grok: ${path.join(t.home, '.grok', 'sessions')}: wrong type (expected a directory, found a file)\nagentwatch: run agentwatch doctor for details\n`,
    );
  });

  it('a place that is simply not there (an agent not installed) is not a problem', async () => {
    const { t } = await fresh();
    const run = await runCli(['sessions', '--all'], { env: t.env });
    expect(run.stderr).toBe('');
  });

  it('a corrupt database: the one-shot listing promises no poll', async () => {
    const { t } = await fresh();
    const db = opencodeDbPath(t.env);
    await mkdir(path.dirname(db), { recursive: true });
    await writeFile(db, 'garbage garbage garbage garbage\n');
    const run = await runCli(['sessions', '--all', '--agent', 'opencode'], { env: t.env });
    expect(run.stderr).toContain(`opencode: OpenCode: database ${db} is corrupt or not a database`);
    expect(run.stderr).not.toContain('next poll');
  });
});

describe('sessions --agent NAME for an agent the config disables', () => {
  it('says it is disabled and how to enable it, not that no agent wrote a session', async () => {
    const { t, file } = await fresh({ agents: { codex: false } });
    const run = await runCli(['sessions', '--all', '--agent', 'codex'], { env: t.env });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`No sessions from codex: it is disabled in the config (agents.codex: false). To list them, set "codex": true under "agents" in ${file}.\n`);
    expect(run.stdout).not.toMatch(/No agent has written|with no agent enabled|--demo/);
  });

  it('every agent disabled: says so, with how to enable one', async () => {
    const agents = Object.fromEntries(AGENT_KINDS.map((a) => [a, false]));
    const { t, file } = await fresh({ agents });
    const run = await runCli(['sessions', '--all'], { env: t.env });
    expect(run.stdout).toBe(`No sessions: every agent is disabled in the config. To list sessions, set an agent to true under "agents" in ${file} (e.g. "claude": true).\n`);
  });
});

describe('doctor (a fresh-user audit)', { timeout: 90_000 }, () => {
  it('counts sessions as sessions --all lists them: an empty and a junk-only transcript are files without a session', async () => {
    const { t } = await fresh();
    const project = path.join(t.home, '.claude', 'projects', '-home-dev-x');
    await mkdir(project, { recursive: true });
    const id = (n: number): string => `a0000000-0000-4000-8000-00000000000${n}`;
    await writeFile(path.join(project, `${id(1)}.jsonl`), '');
    await writeFile(path.join(project, `${id(2)}.jsonl`), 'junk\nmore junk\n');
    const line = { type: 'user', cwd: '/home/dev/x', sessionId: id(3), version: '2.0.31', message: { role: 'user', content: 'hi' }, timestamp: '2026-03-10T09:00:00.000Z' };
    await writeFile(path.join(project, `${id(3)}.jsonl`), `${JSON.stringify(line)}\n`);
    const listed = JSON.parse((await runCli(['sessions', '--all', '--json'], { env: t.env })).stdout) as unknown[];
    const report = JSON.parse((await runCli(['doctor', '--json'], { env: t.env, timeoutMs: 60_000 })).stdout) as DoctorReport;
    const claude = report.agents.find((a) => a.agent === 'claude');
    expect(listed).toHaveLength(1);
    expect(claude).toMatchObject({ sessions: 1, files: 3, files_without_session: 2, subagent_sessions: 0 });
    const text = await runCli(['doctor'], { env: t.env, timeoutMs: 60_000 });
    expect(text.stdout).toContain('claude: 1 session in 3 files (2 hold no session: empty, junk only or nothing dated yet), versions 2.0.31\n');
  });

  it('a damaged session-names.json is a problem (exit 1), in the text and in --json', async () => {
    const { t } = await fresh();
    const names = path.join(t.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'session-names.json');
    await mkdir(path.dirname(names), { recursive: true });
    await writeFile(names, '{"x": 1');
    const run = await runCli(['doctor', '--json'], { env: t.env, timeoutMs: 60_000 });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as DoctorReport;
    expect(report.config.session_names).toEqual({ path: names, problem: expect.stringMatching(/is not a JSON object of names/) });
    expect(report.problems).toEqual([`config: ${report.config.session_names.problem ?? ''}`, expect.stringMatching(/^no agent data: /)]);
    const text = await runCli(['doctor'], { env: t.env, timeoutMs: 60_000 });
    expect(text.stdout).toContain(`  warning: ${names} is not a JSON object of names`);
    expect(text.stdout).not.toContain('Healthy');
    // Read only: the file stays where it is.
    expect(await readFile(names, 'utf8')).toBe('{"x": 1');
  });

  it('a corrupt opencode.db: its place is not "ok", and no poll is promised', async () => {
    const { t } = await fresh();
    const db = opencodeDbPath(t.env);
    await mkdir(path.dirname(db), { recursive: true });
    await writeFile(db, 'garbage garbage garbage garbage\n');
    const run = await runCli(['doctor'], { env: t.env, timeoutMs: 60_000 });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`looked in ${db}: UNREADABLE (corrupt or not a database: see db_corrupt below)\n`);
    expect(run.stdout).not.toContain(`${db}: ok`);
    expect(run.stdout).not.toContain('next poll');
  });

  it('lists webhooks in the order of the config file; a mistyped state gets "did you mean"', async () => {
    const { t } = await fresh({
      webhooks: [
        { name: 'b', url: 'http://127.0.0.1:9/b' },
        { name: 'a', url: 'ftp://example.com' },
        { name: 'c', url: 'http://127.0.0.1:9/c', events: ['wating', 'active'] },
        { name: 'd', url: 'http://127.0.0.1:9/d', enabled: false },
      ],
    });
    const report = JSON.parse((await runCli(['doctor', '--json'], { env: t.env, timeoutMs: 60_000 })).stdout) as DoctorReport;
    expect(report.webhooks.map((w) => [w.name, w.valid])).toEqual([
      ['b', true],
      ['a', false],
      ['c', false],
      ['d', true],
    ]);
    expect(report.webhooks[2]?.problems).toEqual([
      'events.0: events must list activity states (active, idle, waiting, thinking, compacting, reading, writing, running, searching, browsing, spawning): "wating" is not one (did you mean "waiting"?)',
    ]);
  });
});

describe('webhooks log', () => {
  it('an invalid value: one warning naming the key, and the command runs on its default, as every command', async () => {
    const { t, file } = await fresh('{ "window_minutes": "x" }');
    const run = await runCli(['webhooks', 'log'], { env: t.env });
    expect(run.code).toBe(0);
    expect(run.stderr.split('\n')[0]).toBe(`agentwatch: ${file}: window_minutes "x" is not a whole number in 1..10080; using 30`);
  });

  it('a file that is not JSON: exit 1 naming the file, the line and the column, as every command that needs it', async () => {
    const { t, file } = await fresh('{ "window_minutes": 5, }');
    const run = await runCli(['webhooks', 'log'], { env: t.env });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`agentwatch: ${file}:1:22: not valid JSON (a trailing comma (JSON takes none before }))\n`);
  });

  it('a NAME neither configured nor in the log: exit 1 with the configured names, as webhooks test NAME', async () => {
    const { t, file } = await fresh({ webhooks: [{ name: 'team-bot', url: 'http://127.0.0.1:9/x' }] });
    const run = await runCli(['webhooks', 'log', 'nosuch'], { env: t.env });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`agentwatch: no webhook named "nosuch" in ${file} (configured: "team-bot") and no delivery of one in the log\n`);
    // A configured one with nothing recorded yet is not a mistake.
    const known = await runCli(['webhooks', 'log', 'team-bot'], { env: t.env });
    expect(known.code).toBe(0);
  });
});

describe('usage errors point to the command\'s own help', () => {
  it.each([
    [['search', 'pager', '--agent', 'bogus'], 'Run agentwatch search --help'],
    [['passphrase', 'secret-on-the-command-line'], 'Run agentwatch passphrase --help'],
  ])('%j', async (args, hint) => {
    const { t } = await fresh();
    const run = await runCli(args, { env: t.env });
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n').at(-2)).toBe(hint);
  });
});
