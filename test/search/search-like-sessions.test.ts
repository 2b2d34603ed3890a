import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pbkdf2Sync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_KINDS } from '../../src/core/agents.js';
import type { SessionDetail } from '../../src/core/session.js';
import type { SearchResult } from '../../src/search/query.js';
import { runCli } from '../helpers/cli.js';
import { startMonitor, until } from '../helpers/monitor-process.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { freshenCursor, installAll, search, writeConfig } from './helpers.js';

/**
 * `agentwatch search` says what `agentwatch sessions` says: the same last activity and title
 * (the user's rename, else the agent's title) for the same session, in the one-shot command and
 * in a running monitor; its empty state names only the agents searched, and an agent disabled in
 * the config is said to be, not searched as one without hits. Needs `npm run build` first.
 */
const CLAUDE_ID = '6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10';
const CLAUDE_MAIN = (t: TempHome): string => path.join(t.home, '.claude', 'projects', '-home-dev-acme-api', `${CLAUDE_ID}.jsonl`);
/** Matches a message in every agent's fixture. */
const EVERYTHING = 'the OR a OR to OR fix OR test OR bucket OR footer OR JPY';

let home: TempHome | undefined;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await home?.cleanup();
  home = undefined;
});

const rename = async (t: TempHome, names: Record<string, string>): Promise<void> => {
  const file = path.join(t.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'session-names.json');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(names));
};

const listed = async (t: TempHome): Promise<SessionDetail[]> => JSON.parse((await runCli(['sessions', '--all', '--json'], { env: t.env, timeoutMs: 60_000 })).stdout) as SessionDetail[];

/** Each result beside the session `sessions` lists for it: [agent, id, search's, sessions'] of last activity and title. */
const compare = (results: readonly SearchResult[], sessions: readonly SessionDetail[]) =>
  results.flatMap((r) => {
    const s = sessions.find((d) => d.agent === r.agent && d.session_id === r.session_id);
    return s ? [{ key: `${r.agent}:${r.session_id}`, search: [r.last_activity, r.title], sessions: [s.last_activity, s.custom_name || s.agent_name] }] : [];
  });

describe('search results carry what sessions shows', { timeout: 120_000 }, () => {
  it('the same last activity (the newest record, not the newest message) and title (the rename first), also after an append', async () => {
    const t = (home = await installAll('agentwatch-search-like-sessions-'));
    freshenCursor(t);
    await rename(t, { [CLAUDE_ID]: 'my limiter', 'ses_footer': 'footer fix (mine)' });
    const first = await search(t, [EVERYTHING, '--json', '--limit', '100']);
    expect(first.code).toBe(0);
    const pairs = compare(first.results, await listed(t));
    // Every agent with a listed session took part, among them those whose last record is not a message.
    expect(new Set(pairs.map((p) => p.key.split(':')[0]))).toEqual(new Set(AGENT_KINDS));
    for (const pair of pairs) expect(pair.search, pair.key).toEqual(pair.sessions);
    expect(pairs.find((p) => p.key === `claude:${CLAUDE_ID}`)?.search[1]).toBe('my limiter');
    expect(pairs.find((p) => p.key === 'opencode:ses_footer')?.search[1]).toBe('footer fix (mine)');

    // A tool call after the last message: a later search (resumed from its offsets) moves the last activity as sessions does.
    // (`"}}` ends the transcript's cut last line first.)
    await appendFile(
      CLAUDE_MAIN(t),
      `"}}\n${JSON.stringify({ parentUuid: null, isSidechain: false, cwd: '/home/dev/acme-api', sessionId: CLAUDE_ID, version: '2.0.31', type: 'assistant', message: { id: 'msg_zz', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_zz', name: 'Bash', input: { command: 'go test ./...' } }] }, timestamp: '2026-03-10T11:30:00.000Z' })}\n`,
    );
    const second = await search(t, ['bucket', '--json']);
    const claude = compare(second.results, await listed(t)).find((p) => p.key === `claude:${CLAUDE_ID}`);
    expect(claude?.sessions[0]).toBe('2026-03-10T11:30:00.000Z');
    expect(claude?.search).toEqual(claude?.sessions);
  });

  it('names each session as sessions does (the rename, the title, else the latest prompt), in JSON and in the text heading', async () => {
    const t = (home = await installAll('agentwatch-search-names-'));
    freshenCursor(t);
    await rename(t, { [CLAUDE_ID]: 'my limiter' });
    const found = await search(t, [EVERYTHING, '--json', '--limit', '100']);
    expect(found.code).toBe(0);
    const sessions = await listed(t);
    const pairs = found.results.flatMap((r) => {
      const s = sessions.find((d) => d.agent === r.agent && d.session_id === r.session_id);
      return s ? [{ key: `${r.agent}:${r.session_id}`, search: r.display_name, sessions: s.display_name, titled: (s.custom_name || s.agent_name) !== '' }] : [];
    });
    expect(pairs.length).toBeGreaterThan(5);
    for (const pair of pairs) expect(pair.search, pair.key).toBe(pair.sessions);
    // Some fixture sessions have no title: those are named by their prompt, not by their folder.
    const untitled = pairs.filter((p) => !p.titled);
    expect(untitled.length).toBeGreaterThan(0);
    const text = await search(t, [EVERYTHING, '--limit', '100']);
    const headings = text.stdout.split('\n').filter((line) => /^\S/.test(line));
    for (const pair of pairs) expect(headings.some((line) => line.startsWith(`${pair.search}  `)), pair.key).toBe(true);
  });

  it('GET /api/search in a running monitor gives the last activity and title its own session list gives', async () => {
    const t = (home = await installAll('agentwatch-search-like-sessions-api-'));
    const salt = 'search-like-sessions-salt';
    const passphrase = 'search like sessions passphrase';
    await writeConfig(t, { api_salt: salt, window_minutes: 10_080 });
    await rename(t, { '0199d2a4-7c31-7e02-b5a9-4f1e2d3c4b5a': 'rounding (mine)' });
    const monitor = await startMonitor(['--api', '--host', '127.0.0.1:0'], { ...t.env, AGENTWATCH_API_PASSPHRASE: passphrase }, cleanups);
    const headers = { authorization: `Bearer ${pbkdf2Sync(passphrase, salt, 600000, 32, 'sha256').toString('base64url')}` };
    const get = async <T>(route: string): Promise<T> => (await (await fetch(`${monitor.base}${route}`, { headers })).json()) as T;
    await until('ready', async () => (await get<{ ready: boolean }>('/api/stats')).ready || undefined, { context: monitor.stderr });
    const results = await get<SearchResult[]>(`/api/search?q=${encodeURIComponent(EVERYTHING)}&limit=100`);
    const details = await Promise.all(results.map((r) => get<SessionDetail>(`/api/sessions/${encodeURIComponent(r.session_id)}`).catch(() => undefined)));
    const pairs = compare(results, details.filter((d): d is SessionDetail => d !== undefined && 'session_id' in d));
    expect(pairs.map((p) => p.key)).toEqual(expect.arrayContaining(['codex:0199d2a4-7c31-7e02-b5a9-4f1e2d3c4b5a', 'opencode:ses_tests', `claude:${CLAUDE_ID}`]));
    for (const pair of pairs) expect(pair.search, pair.key).toEqual(pair.sessions);
    expect(pairs.find((p) => p.key === 'codex:0199d2a4-7c31-7e02-b5a9-4f1e2d3c4b5a')?.search[1]).toBe('rounding (mine)');
  });

  it('a monitor started with --agent codex searches Codex only, as it lists Codex only', async () => {
    const t = (home = await installAll('agentwatch-search-watched-agents-'));
    const salt = 'search-watched-agents-salt';
    const passphrase = 'search watched agents passphrase';
    await writeConfig(t, { api_salt: salt, window_minutes: 10_080 });
    const monitor = await startMonitor(['--api', '--host', '127.0.0.1:0', '--agent', 'codex'], { ...t.env, AGENTWATCH_API_PASSPHRASE: passphrase }, cleanups);
    const headers = { authorization: `Bearer ${pbkdf2Sync(passphrase, salt, 600000, 32, 'sha256').toString('base64url')}` };
    const get = async <T>(route: string): Promise<T> => (await (await fetch(`${monitor.base}${route}`, { headers })).json()) as T;
    await until('ready', async () => (await get<{ ready: boolean }>('/api/stats')).ready || undefined, { context: monitor.stderr });
    const results = await get<SearchResult[]>(`/api/search?q=${encodeURIComponent(EVERYTHING)}&limit=100`);
    expect(results.map((r) => r.agent)).toContain('codex');
    expect(new Set(results.map((r) => r.agent))).toEqual(new Set(['codex']));
    // Asked for another agent by name: still none of it.
    expect(await get<SearchResult[]>(`/api/search?q=${encodeURIComponent(EVERYTHING)}&agent=claude`)).toEqual([]);
  });
});

describe('search empty states', { timeout: 90_000 }, () => {
  it('--agent LIST with no session of those agents names only them, and looked only where they keep sessions', async () => {
    const t = (home = await makeTempHome('agentwatch-search-empty-agents-'));
    const run = await runCli(['search', 'foo', '--agent', 'claude,codex'], { env: t.env, timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        'No session mentions "foo": no session of claude, codex was found to search.',
        'Looked in:',
        `  claude   ${path.join(t.home, '.claude', 'projects')}`,
        `  codex    ${path.join(t.home, '.codex', 'sessions')}`,
        '',
      ].join('\n'),
    );
  });

  it('--agent of an agent without sessions, while others have some: says so for that agent, not "no hits"', async () => {
    const t = (home = await installAll('agentwatch-search-empty-one-'));
    const { rm } = await import('node:fs/promises');
    await rm(path.join(t.home, '.pi'), { recursive: true, force: true });
    const run = await runCli(['search', 'notes', '--agent', 'pi'], { env: t.env, timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('No session mentions "notes": no session of pi was found to search.');
  });

  it('an agent disabled in the config is said to be disabled, not searched as one without hits', async () => {
    const t = (home = await installAll('agentwatch-search-disabled-'));
    await writeConfig(t, { agents: { codex: false } });
    const file = path.join(t.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json');
    const alone = await search(t, ['JPY', '--agent', 'codex']);
    expect(alone.code).toBe(0);
    expect(alone.stderr).toBe(`agentwatch: codex is disabled in ${file} (agents.codex: false); not searched\n`);
    expect(alone.stdout).toBe('No session mentions "JPY": no enabled agent to search.\n');
    const json = await search(t, ['JPY', '--agent', 'codex', '--json']);
    expect(json.stdout).toBe('[]\n');
    expect(json.stderr).toContain('codex is disabled');
    // Beside an enabled agent: that one is searched, the disabled one said to be.
    const both = await search(t, ['bucket OR JPY', '--agent', 'claude,codex', '--json']);
    expect(both.code).toBe(0);
    expect(both.stderr).toBe(`agentwatch: codex is disabled in ${file} (agents.codex: false); not searched\n`);
    expect(both.results.map((r) => r.agent)).toEqual(['claude']);
  });
});
