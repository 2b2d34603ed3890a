import { mkdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITIES } from '../src/core/activity.js';
import { AGENT_KINDS } from '../src/core/agents.js';
import type { SessionDetail } from '../src/core/session.js';
import { runCli } from './helpers/cli.js';
import { makeTempHome, type TempHome } from './helpers/temp-home.js';

/**
 * `agentwatch sessions` as a spawned process on a fake HOME holding real claude, codex and pi
 * transcripts, written with timestamps relative to now so activity states are meaningful.
 */
const NOW = Date.now();
const iso = (agoMs: number): string => new Date(NOW - agoMs).toISOString();
const jsonl = (records: readonly object[]): string => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

const claudeLines = (cwd: string, id: string, lastAgoMs: number, extra: object = {}): string =>
  jsonl([
    { type: 'user', cwd, sessionId: id, version: '2.0.31', gitBranch: 'main', uuid: 'u1', timestamp: iso(lastAgoMs + 9_000), message: { role: 'user', content: 'Add a rate limiter' }, ...extra },
    {
      type: 'assistant', cwd, sessionId: id, uuid: 'u2', timestamp: iso(lastAgoMs + 5_000), ...extra,
      message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Edit', input: { file_path: `${cwd}/server.go` } }], usage: { input_tokens: 10, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } },
    },
    { type: 'user', cwd, sessionId: id, uuid: 'u3', timestamp: iso(lastAgoMs + 4_000), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] }, ...extra },
    {
      type: 'assistant', cwd, sessionId: id, uuid: 'u4', timestamp: iso(lastAgoMs), ...extra,
      message: { id: 'msg_2', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [{ type: 'text', text: 'Added the limiter.' }], usage: { input_tokens: 5, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } },
    },
  ]);

const codexLines = (cwd: string, id: string, lastAgoMs: number): string =>
  jsonl([
    { timestamp: iso(lastAgoMs + 8_000), type: 'session_meta', payload: { id, cwd, cli_version: '0.116.0', source: 'cli', originator: 'codex_cli_rs' } },
    { timestamp: iso(lastAgoMs + 7_000), type: 'turn_context', payload: { cwd, model: 'gpt-5.2-codex', git: { branch: 'main' } } },
    { timestamp: iso(lastAgoMs + 6_000), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix JPY rounding' }] } },
    { timestamp: iso(lastAgoMs), type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Fixed.' }] } },
  ]);

const piLines = (cwd: string, lastAgoMs: number): string =>
  jsonl([
    { type: 'session', version: 3, id: '1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d', timestamp: iso(lastAgoMs + 5_000), cwd },
    { type: 'message', id: 'c2d3e4f5', parentId: null, timestamp: iso(lastAgoMs + 4_000), message: { role: 'user', content: [{ type: 'text', text: 'Rename todo.md' }], timestamp: NOW - lastAgoMs - 4_000 } },
    { type: 'message', id: 'd3e4f5a6', parentId: 'c2d3e4f5', timestamp: iso(lastAgoMs), message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }], model: 'claude-sonnet-4-5', usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { total: 0.01 } }, stopReason: 'stop', timestamp: NOW - lastAgoMs } },
  ]);

const encodeClaude = (cwd: string): string => cwd.replace(/[^a-zA-Z0-9]/g, '-');

let t: TempHome;
let work = '';
const ids = { api: '6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10', apple: '7e2a1d0f-3c8b-4a64-8f2e-9b5d3c8a6f21', scratch: '8f3b2e1a-4d9c-4b75-9a3f-0c6e4d9b7a32', sub: 'agent-3f9a1c2e', codex: '0199d2a4-7c31-7e02-b5a9-4f1e2d3c4b5a' };

const sessions = (args: readonly string[], cwd = path.join(work, 'api')) => runCli(['sessions', ...args], { env: t.env, cwd, timeoutMs: 30_000 });
const parse = (result: { code: number | null; stdout: string; stderr: string }): SessionDetail[] => {
  if (result.code !== 0) throw new Error(`agentwatch sessions exited ${String(result.code)}: ${result.stderr}`);
  return JSON.parse(result.stdout) as SessionDetail[];
};

beforeAll(async () => {
  t = await makeTempHome('agentwatch-sessions-');
  work = path.join(t.root, 'work');
  const dirs = { api: path.join(work, 'api'), apple: path.join(work, 'apple'), scratch: path.join(work, 'tmp-scratch'), codex: path.join(work, 'api', 'sub'), pi: path.join(t.root, 'notes') };
  for (const dir of Object.values(dirs)) await mkdir(dir, { recursive: true });
  const claude = (cwd: string): string => path.join(t.home, '.claude', 'projects', encodeClaude(cwd));
  await mkdir(claude(dirs.api), { recursive: true });
  await mkdir(claude(dirs.apple), { recursive: true });
  await mkdir(claude(dirs.scratch), { recursive: true });
  await writeFile(path.join(claude(dirs.api), `${ids.api}.jsonl`), `${claudeLines(dirs.api, ids.api, 60_000)}{"not json\n`);
  await writeFile(path.join(claude(dirs.api), `${ids.sub}.jsonl`), claudeLines(dirs.api, ids.sub, 1_000, { isSidechain: true, agentId: '3f9a1c2e' }));
  await writeFile(path.join(claude(dirs.apple), `${ids.apple}.jsonl`), claudeLines(dirs.apple, ids.apple, 3 * 3_600_000));
  await writeFile(path.join(claude(dirs.scratch), `${ids.scratch}.jsonl`), claudeLines(dirs.scratch, ids.scratch, 30_000));
  const codexDir = path.join(t.home, '.codex', 'sessions', '2026', '03', '10');
  await mkdir(codexDir, { recursive: true });
  await writeFile(path.join(codexDir, `rollout-2026-03-10T09-20-11-${ids.codex}.jsonl`), codexLines(dirs.codex, ids.codex, 10 * 60_000));
  const piDir = path.join(t.home, '.pi', 'agent', 'sessions', `--${dirs.pi.slice(1).replace(/\//g, '-')}--`);
  await mkdir(piDir, { recursive: true });
  await writeFile(path.join(piDir, '2026-03-10T09-30-00-123Z_1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d.jsonl'), piLines(dirs.pi, 2 * 86_400_000));
  await mkdir(t.env.XDG_CONFIG_HOME + '/agentwatch', { recursive: true });
  await writeFile(path.join(t.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json'), JSON.stringify({
      exclude_cwd_substrings: ['tmp-scratch'],
      // The answer 60 s before NOW must still read as waiting however long this file takes to reach a test.
      waiting_timeout_minutes: 5,
    }),
  );
  await writeFile(path.join(t.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'session-names.json'), JSON.stringify({ [ids.api]: 'limiter work' }));
});
afterAll(() => t.cleanup());

describe('agentwatch sessions (spawned)', () => {
  it('--json lists the sessions in the current directory or below, newest first, as session details', async () => {
    const result = await sessions(['--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const list = parse(result);
    expect(list.map((s) => s.session_id)).toEqual([ids.api, ids.codex]);
    const api = list[0];
    expect(api).toMatchObject({
      agent: 'claude',
      cwd: path.join(work, 'api'),
      short_name: 'api',
      custom_name: 'limiter work',
      // answered 60 s ago: waiting, even though this process never saw the session before
      activity: 'waiting',
      is_active: false,
      model: 'claude-sonnet-4-5-20250929',
      git_branch: 'main',
      is_worktree: false,
      input_tokens: 15,
      output_tokens: 27,
      last_file_write: path.join(work, 'api', 'server.go'),
      resume_command: `claude --resume ${ids.api}`,
    });
    expect(Object.keys(api ?? {}).sort()).toEqual([
      'activity', 'agent', 'agent_name', 'assistant_messages', 'cache_creation_tokens', 'cache_read_tokens', 'cost_source', 'cost_usd', 'current_tool', 'custom_name',
      'cwd', 'display_name', 'git_branch', 'input_tokens', 'is_active', 'is_worktree', 'last_activity', 'last_file_write', 'last_file_write_at', 'main_repo', 'model',
      'order_group', 'output_tokens', 'recent_messages', 'recent_tools', 'resume_command', 'session_id', 'short_name', 'source', 'started_at', 'subagents', 'total_messages', 'user_messages', 'version', 'waiting_since',
    ]);
    expect(ACTIVITIES).toContain(list[1]?.activity);
    expect(Date.parse(api?.last_activity ?? '')).toBe(NOW - 60_000);
  });

  it('--dir is path-segment aware (api, not apple) and hides excluded cwds and sub-agents', async () => {
    const list = parse(await sessions(['--dir', work, '--json']));
    expect(list.map((s) => s.session_id)).toEqual([ids.api, ids.codex, ids.apple]);
    const onlyApi = parse(await sessions(['--dir', path.join(work, 'api'), '--json'], t.root));
    expect(onlyApi.map((s) => s.session_id)).toEqual([ids.api, ids.codex]);
  });

  it('--dir through a symlink lists the sessions recorded under its real path, as the current directory does', async () => {
    // macOS: /tmp is /private/tmp, and agents record the real path.
    const link = path.join(t.root, 'api-link');
    await symlink(path.join(work, 'api'), link);
    const viaLink = parse(await sessions(['--dir', link, '--json'], t.root));
    expect(viaLink.map((s) => s.session_id)).toEqual([ids.api, ids.codex]);
    const relative = parse(await sessions(['--dir', 'api-link/sub', '--json'], t.root));
    expect(relative.map((s) => s.session_id)).toEqual([ids.codex]);
    // Inside the link, the default scope (process.cwd() is the real path) lists the same.
    expect(parse(await sessions(['--json'], link)).map((s) => s.session_id)).toEqual([ids.api, ids.codex]);
  });

  it('--all lists every directory and every age; --window keeps the recently active', async () => {
    const all = parse(await sessions(['--all', '--json']));
    expect(all.map((s) => s.agent)).toEqual(['claude', 'codex', 'claude', 'pi']);
    const recent = parse(await sessions(['--all', '--window', '30', '--json']));
    expect(recent.map((s) => s.session_id)).toEqual([ids.api, ids.codex]);
  });

  it('--window with file times as agents leave them: the same listing; an empty one still counts the older sessions', async () => {
    // Each file last written at its last record, as an agent leaves it: the window's pass skips the old ones.
    const claudeDir = (cwd: string): string => path.join(t.home, '.claude', 'projects', encodeClaude(cwd));
    const lastWritten: [string, number][] = [
      [path.join(claudeDir(path.join(work, 'api')), `${ids.api}.jsonl`), 60_000],
      [path.join(claudeDir(path.join(work, 'apple')), `${ids.apple}.jsonl`), 3 * 3_600_000],
      [path.join(t.home, '.codex', 'sessions', '2026', '03', '10', `rollout-2026-03-10T09-20-11-${ids.codex}.jsonl`), 10 * 60_000],
    ];
    for (const [file, agoMs] of lastWritten) await utimes(file, (NOW - agoMs) / 1000, (NOW - agoMs) / 1000);
    const recent = parse(await sessions(['--all', '--window', '30', '--json']));
    expect(recent.map((s) => s.session_id)).toEqual([ids.api, ids.codex]);
    const apple = await sessions(['--window', '30'], path.join(work, 'apple'));
    expect(apple.code).toBe(0);
    expect(apple.stdout).toContain('1 session here is older than 30 min');
  });

  it('--agent keeps one agent', async () => {
    const list = parse(await sessions(['--all', '--agent', 'codex', '--json']));
    expect(list.map((s) => [s.agent, s.session_id])).toEqual([['codex', ids.codex]]);
  });

  it('prints a table by default', async () => {
    // The ages as the table can print them: taken from the clock before and after the command ran.
    const ages = (agoMs: number, from: number, to: number): string => [...new Set([from, to].map((at) => Math.floor((at - NOW + agoMs) / 60_000)))].join('|');
    const before = Date.now();
    const result = await sessions([]);
    const after = Date.now();
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^AGENT\s+STATE\s+PROJECT\s+NAME\s+LAST ACTIVITY$/);
    expect(lines[1]).toMatch(new RegExp(`^Claude\\s+waiting\\s+api\\s+limiter work\\s+(${ages(60_000, before, after)})m ago$`));
    // No rename and no title: the latest prompt names it, as everywhere.
    expect(lines[2]).toMatch(new RegExp(`^Codex\\s+idle\\s+sub\\s+Fix JPY rounding\\s+(${ages(10 * 60_000, before, after)})m ago$`));
    expect(lines).toHaveLength(3);
  });

  it('says where it looked when nothing matches, and still exits 0', async () => {
    const result = await sessions([], t.home);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`No sessions in ${t.home} (or below)`);
    expect(result.stdout).toContain(path.join(t.home, '.claude', 'projects'));
    expect(result.stdout).toContain(path.join(t.home, '.codex', 'sessions'));
    const json = await sessions(['--json'], t.home);
    expect(json.stderr).toContain('Looked in:');
    expect(json.stdout).toBe('[]\n');
    expect(json.stderr).toContain('Looked in:');
  });

  it.each([
    [['--window', 'abc'], /--window/],
    [['--window', '0'], /--window/],
    [['--window', '1e3'], /^agentwatch: Invalid value for --window: "1e3" \(expected a whole number from 1 to 10080\)$/],
    [['--window', '10081'], /--window/],
    [['--all', '--dir', '/tmp'], /--all and --dir/],
    [['--agent', 'nope'], /--agent/],
    [['--bogus'], /Unknown flag --bogus/],
    [['extra'], /Unexpected argument/],
  ])('exits 2 with one line for bad flags %j', async (args, message) => {
    const result = await sessions(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('runs on the defaults with a config that is not JSON, says so naming the file, and leaves it byte-identical', async () => {
    const bad = await makeTempHome('agentwatch-sessions-bad-');
    try {
      const file = path.join(bad.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json');
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, '{ "window_minutes": 30,');
      const result = await runCli(['sessions', '--all'], { env: bad.env });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(`${file}:1:24: not valid JSON`);
      expect(await readFile(file, 'utf8')).toBe('{ "window_minutes": 30,');
    } finally {
      await bad.cleanup();
    }
  });

  it('--demo lists generated sessions of every agent (every directory without --dir)', async () => {
    const list = parse(await sessions(['--demo', '--json']));
    expect(new Set(list.map((s) => s.agent)).size).toBe(AGENT_KINDS.length);
    expect(new Set(list.map((s) => s.activity)).size).toBeGreaterThanOrEqual(4);
  });
});
