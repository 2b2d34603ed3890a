import { mkdir, readFile, readdir, stat, writeFile, appendFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pbkdf2Sync } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENT_KINDS } from '../../src/core/agents.js';
import type { SessionDetail } from '../../src/core/session.js';
import type { SearchResult } from '../../src/search/query.js';
import { runCli } from '../helpers/cli.js';
import { startMonitor, until } from '../helpers/monitor-process.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { freshenCursor, installAll as installFixtures, search, writeConfig } from './helpers.js';

/** `agentwatch search` end to end on the fixtures of every agent. */
const COUNT_OPENS = fileURLToPath(new URL('../helpers/count-opens.mjs', import.meta.url));

let home: TempHome | undefined;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await home?.cleanup();
  home = undefined;
});

const installAll = async (): Promise<TempHome> => (home = await installFixtures());
const CLAUDE_MAIN = (t: TempHome): string => path.join(t.home, '.claude', 'projects', '-home-dev-acme-api', '6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10.jsonl');

/** Whether the index files (the database and its write-ahead log) hold `text` anywhere. */
const indexHolds = async (t: TempHome, text: string): Promise<boolean> => {
  const file = path.join(t.env.XDG_CACHE_HOME ?? '', 'agentwatch', 'search.db');
  for (const suffix of ['', '-wal']) {
    const bytes = await readFile(`${file}${suffix}`).catch(() => Buffer.alloc(0));
    if (bytes.includes(Buffer.from(text))) return true;
  }
  return false;
};

/** A word a person or the agent said in a session of `agent`: the longest plain word of its first message. */
const wordOf = (detail: SessionDetail): string | undefined =>
  detail.recent_messages
    .flatMap((m) => m.text.split(/[^\p{L}\p{N}_]+/u))
    .filter((w) => w.length >= 5 && w.length <= 30 && !/^\d+$/.test(w))
    .sort((a, b) => b.length - a.length)[0];

// Each case spawns the CLI several times and the first search indexes every fixture: room on a busy 2-core runner.
describe('agentwatch search', { timeout: 180_000 }, () => {
  it('finds a word said in a session of each agent, with the hit marked in its snippet', async () => {
    const t = await installAll();
    freshenCursor(t);
    const listed = JSON.parse((await runCli(['sessions', '--all', '--json'], { env: t.env, timeoutMs: 60_000 })).stdout) as SessionDetail[];
    const agentsWithText = AGENT_KINDS.filter((agent) => listed.some((s) => s.agent === agent && wordOf(s)));
    expect(agentsWithText).toEqual([...AGENT_KINDS]);
    for (const agent of agentsWithText) {
      const session = listed.find((s) => s.agent === agent && wordOf(s)) as SessionDetail;
      const word = wordOf(session) as string;
      const { code, results } = await search(t, [word, '--agent', agent, '--json']);
      expect(code, `${agent}: ${word}`).toBe(0);
      const hit = results.find((r) => r.session_id === session.session_id);
      expect(hit, `${agent}: "${word}" finds ${session.session_id}`).toBeDefined();
      expect(hit?.snippets.some((s) => s.text.toLowerCase().includes(`[${word.toLowerCase()}]`)), `${agent}: snippet marks ${word}`).toBe(true);
      expect(hit?.resume_command).not.toBe('');
    }
  });

  it('a sub-agent\'s messages are found under its parent session', async () => {
    const t = await installAll();
    const sub = path.join(t.home, '.claude', 'projects', '-home-dev-acme-api', '6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10', 'subagents', 'agent-a1b2c3d4e5f6.jsonl');
    await appendFile(sub, `${JSON.stringify({ isSidechain: true, type: 'user', cwd: '/home/dev/acme-api', sessionId: '6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10', message: { role: 'user', content: 'check the marmalade cache' }, timestamp: '2026-03-10T09:18:00.000Z' })}\n`);
    const { results } = await search(t, ['marmalade', '--json']);
    expect(results.map((r) => r.session_id)).toEqual(['6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10']);
  });

  it('finds what was said in the single-document chats of Gemini CLI and Qwen Code', async () => {
    const t = await installAll();
    const gemini = await search(t, ['attempts', '--json']);
    expect(gemini.results.map((r) => [r.agent, r.session_id])).toEqual([['gemini', 'cc33dd44-0000-4000-8000-000000000000']]);
    const qwen = await search(t, ['"stock column"', '--json']);
    expect(qwen.results.map((r) => [r.agent, r.session_id])).toEqual([['qwen', '9c8b7a6f-5e4d-4c3b-8a29-1f0e9d8c7b6a']]);
  });

  it('a malformed query exits 2 with a one-line message; no hits exit 0', async () => {
    const t = await installAll();
    const bad = await search(t, ['"unterminated']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toMatch(/^agentwatch: malformed search query/);
    const none = await search(t, ['zzyzxnothingmatches', '--json']);
    expect(none.code).toBe(0);
    expect(none.results).toEqual([]);
  });

  it('with sessions but no hit, says so in one line', async () => {
    const t = await installAll();
    const none = await runCli(['search', 'zzyzxnothingmatches'], { env: t.env, timeoutMs: 60_000 });
    expect(none.code).toBe(0);
    expect(none.stdout).toBe('No session mentions "zzyzxnothingmatches".\n');
  });

  it('with no session of any agent, says where it looked (stderr under --json, whose stdout stays [])', async () => {
    const t = (home = await makeTempHome('agentwatch-search-empty-'));
    const text = await runCli(['search', 'foo'], { env: t.env, timeoutMs: 60_000 });
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`No session mentions "foo": no session of ${AGENT_KINDS.join(', ')} was found to search.`);
    expect(lines[1]).toBe('Looked in:');
    expect(text.stdout).toContain(`  claude   ${path.join(t.home, '.claude', 'projects')}\n`);
    expect(text.stdout).toContain(`  codex    ${path.join(t.home, '.codex', 'sessions')}\n`);
    const json = await runCli(['search', 'foo', '--json'], { env: t.env, timeoutMs: 60_000 });
    expect(json.code).toBe(0);
    expect(json.stdout).toBe('[]\n');
    expect(json.stderr).toContain('Looked in:');
  });

  it.each([['--limit', '1e300'], ['--limit', '0x10'], ['--limit', '10001']])('%s %s is a usage error (exit 2), not a failure later', async (...flag) => {
    const t = (home = await makeTempHome('agentwatch-search-flags-'));
    const run = await runCli(['search', 'foo', ...flag], { env: t.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`agentwatch: Invalid value for --limit: "${flag[1]}" (expected a whole number from 1 to 10000)\nRun agentwatch search --help\n`);
  });

  it('reads the query from stdin', async () => {
    const t = await installAll();
    const run = await runCli(['search', '-', '--json'], { env: t.env, input: 'bucket', timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as SearchResult[]).length).toBeGreaterThan(0);
  });

  it('sessions under an excluded cwd are never indexed nor returned, also when their transcript grows', async () => {
    const t = await installAll();
    await writeConfig(t, { exclude_cwd_substrings: ['acme-api'] });
    const { results } = await search(t, ['bucket', '--json']);
    expect(results.filter((r) => r.cwd.includes('acme-api'))).toEqual([]);
    expect(await indexHolds(t, 'token-bucket rate limiter')).toBe(false);
    // A later search resumes the transcript from its offset (its cwd is not read again): still out.
    await appendFile(CLAUDE_MAIN(t), `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'the secret pelicanplan' }, timestamp: '2026-03-10T12:00:00.000Z' })}\n`);
    const again = await search(t, ['pelicanplan', '--json']);
    expect(again.results).toEqual([]);
    expect(await indexHolds(t, 'pelicanplan')).toBe(false);
  });

  it('follows the config: a new exclusion or a disabled agent removes what the index held, lifting it brings it back', async () => {
    const t = await installAll();
    expect((await search(t, ['bucket', '--json'])).results.map((r) => r.agent)).toContain('claude');
    expect(await indexHolds(t, 'token-bucket rate limiter')).toBe(true);
    await writeConfig(t, { exclude_cwd_substrings: ['acme-api'], agents: { codex: false } });
    const narrowed = await search(t, ['bucket OR JPY', '--json']);
    expect(narrowed.results.filter((r) => r.cwd.includes('acme-api') || r.agent === 'codex')).toEqual([]);
    expect(await indexHolds(t, 'token-bucket rate limiter')).toBe(false);
    expect(await indexHolds(t, 'invoice rounding fail')).toBe(false);
    await writeConfig(t, {});
    const widened = await search(t, ['bucket OR JPY', '--json']);
    expect(widened.results.map((r) => r.agent).sort()).toEqual(expect.arrayContaining(['claude', 'codex']));
  });

  it('keeps the index private: 0600 in a 0700 directory', async () => {
    const t = await installAll();
    await search(t, ['bucket', '--json']);
    const dir = path.join(t.env.XDG_CACHE_HOME ?? '', 'agentwatch');
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(dir, 'search.db'))).mode & 0o777).toBe(0o600);
  });

  it('a second search reads no transcript and opens no agent database again; an append is read alone', async () => {
    const t = await installAll();
    const opens = path.join(t.root, 'opens.json');
    const env = { NODE_OPTIONS: `--import=${COUNT_OPENS}`, AGENTWATCH_TEST_OPENS_FILE: opens };
    await search(t, ['bucket', '--json'], env);
    const first = JSON.parse(await readFile(opens, 'utf8')) as string[];
    expect(first.filter((file) => file.endsWith('.jsonl')).length).toBeGreaterThan(5);
    expect(first.filter((file) => /opencode\.db$|kilo\.db$|state\.vscdb$/.test(file))).toHaveLength(3);
    const second = await search(t, ['bucket', '--json'], env);
    expect(JSON.parse(await readFile(opens, 'utf8')), 'opened by the second search').toEqual([]);
    expect(second.results.map((r) => r.agent)).toContain('claude');
    const main = path.join(t.home, '.claude', 'projects', '-home-dev-acme-api', '6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10.jsonl');
    await appendFile(main, `"}}\n${JSON.stringify({ type: 'user', cwd: '/home/dev/acme-api', message: { role: 'user', content: 'what about quokkaflux' }, timestamp: '2026-03-10T12:00:00.000Z' })}\n`);
    const third = await search(t, ['quokkaflux', '--json'], env);
    expect(third.results.map((r) => r.session_id)).toEqual(['6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10']);
    expect(JSON.parse(await readFile(opens, 'utf8'))).toEqual([main]);
  });

  it('a corrupt index is moved aside and rebuilt', async () => {
    const t = await installAll();
    const dir = path.join(t.env.XDG_CACHE_HOME ?? '', 'agentwatch');
    await search(t, ['bucket', '--json']);
    await writeFile(path.join(dir, 'search.db'), Buffer.from('SQLite format 3\u0000'.padEnd(8192, '\u00ff'), 'latin1'));
    const again = await search(t, ['bucket', '--json']);
    expect(again.code).toBe(0);
    expect(again.results.length).toBeGreaterThan(0);
    expect(again.stderr).toContain('was unusable');
    expect((await readdir(dir)).some((name) => name.startsWith('search.db.broken-'))).toBe(true);
  });

  it('a foreign database at the index path is moved aside, never written into', async () => {
    const t = await installAll();
    const dir = path.join(t.env.XDG_CACHE_HOME ?? '', 'agentwatch');
    await mkdir(dir, { recursive: true });
    const foreign = new Database(path.join(dir, 'search.db'));
    foreign.exec(`CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')`);
    foreign.close();
    const run = await search(t, ['bucket', '--json']);
    expect(run.code).toBe(0);
    expect(run.results.length).toBeGreaterThan(0);
    expect(run.stderr).toContain('not an agentwatch search index');
    const aside = (await readdir(dir)).find((name) => /^search\.db\.broken-\d+$/.test(name)) ?? '';
    const kept = new Database(path.join(dir, aside), { readonly: true });
    expect(kept.prepare('SELECT body FROM notes').pluck().all()).toEqual(['mine']);
    expect(kept.prepare(`SELECT count(*) FROM sqlite_master WHERE name = 'messages'`).pluck().get()).toBe(0);
    kept.close();
  });

  it('--reindex rebuilds from nothing', async () => {
    const t = await installAll();
    await search(t, ['bucket', '--json']);
    const opens = path.join(t.root, 'opens.json');
    const env = { NODE_OPTIONS: `--import=${COUNT_OPENS}`, AGENTWATCH_TEST_OPENS_FILE: opens };
    const run = await search(t, ['bucket', '--reindex', '--json'], env);
    expect(run.results.map((r) => r.agent)).toContain('claude');
    expect((JSON.parse(await readFile(opens, 'utf8')) as string[]).length).toBeGreaterThan(5);
  });
});

describe('GET /api/search in a running monitor', { timeout: 90_000 }, () => {
  it('answers what search --json answers; an append is searchable within a second, and the next one-shot search reads nothing the monitor read', async () => {
    const t = await installAll();
    const salt = 'search-live-salt';
    const passphrase = 'search live passphrase';
    await writeConfig(t, { api_salt: salt });
    const monitor = await startMonitor(['--api', '--host', '127.0.0.1:0'], { ...t.env, AGENTWATCH_API_PASSPHRASE: passphrase }, cleanups);
    const { base } = monitor;
    const wait = <T>(what: string, probe: () => Promise<T | undefined>, ms?: number) => until(what, probe, { ...(ms ? { ms } : {}), context: monitor.stderr });
    const headers = { authorization: `Bearer ${pbkdf2Sync(passphrase, salt, 600000, 32, 'sha256').toString('base64url')}` };
    const api = async (query: string): Promise<SearchResult[]> => (await (await fetch(`${base}/api/search?${query}`, { headers })).json()) as SearchResult[];
    await wait('ready', async () => ((await (await fetch(`${base}/api/stats`, { headers })).json()) as { ready: boolean }).ready || undefined);

    const first = await api('q=bucket');
    expect(first.map((r) => r.agent)).toContain('claude');
    expect(first[0]?.snippets.some((s) => s.text.includes('[bucket]') || s.text.includes('[Bucket]'))).toBe(true);
    expect((await api('q=bucket&agent=codex')).map((r) => r.agent)).toEqual([]);
    expect((await api('q=footer&agent=opencode,kilo')).map((r) => r.agent)).toContain('opencode');
    const malformed = await fetch(`${base}/api/search?q=%22open`, { headers });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: string }).error).toMatch(/^malformed search query "\\"open": a quote is not closed/);
    expect((await fetch(`${base}/api/search`, { headers })).status).toBe(400);
    expect((await fetch(`${base}/api/search?q=bucket&agent=claud`, { headers })).status).toBe(400);
    expect((await fetch(`${base}/api/search?q=bucket`)).status).toBe(401);

    const appendedAt = performance.now();
    await appendFile(CLAUDE_MAIN(t), `"}}\n${JSON.stringify({ type: 'user', cwd: '/home/dev/acme-api', message: { role: 'user', content: 'and the zebrafinch cache' }, timestamp: new Date().toISOString() })}\n`);
    const found = await wait('the appended word is searchable', async () => ((await api('q=zebrafinch')).length > 0 ? api('q=zebrafinch') : undefined), 1_000);
    const tookMs = performance.now() - appendedAt;
    expect(found[0]?.session_id).toBe('6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10');
    expect(tookMs).toBeLessThan(1_000);

    // Settings saved while it runs: what the lists hide, search hides at once.
    const put = (body: unknown): Promise<Response> => fetch(`${base}/api/config`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await put({ exclude_cwd_substrings: ['/home/dev/acme-api'], agents: { opencode: false } })).status).toBe(200);
    expect((await api('q=zebrafinch')).map((r) => r.session_id)).toEqual([]);
    expect((await api('q=footer&agent=opencode,kilo')).map((r) => r.agent)).not.toContain('opencode');
    // Lifted again: the index held them all along (they were excluded after it read them).
    const lifted = await put({ exclude_cwd_substrings: [], agents: { opencode: true } });
    expect(lifted.headers.get('agentwatch-restart-required')).toBeNull();
    expect((await api('q=zebrafinch')).map((r) => r.session_id)).toEqual(['6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10']);
    expect((await api('q=footer&agent=opencode,kilo')).map((r) => r.agent)).toContain('opencode');

    // What the monitor read (and indexed live) is not read again by the next one-shot search.
    await monitor.stop();
    const opens = path.join(t.root, 'opens.json');
    const after = await search(t, ['zebrafinch', '--json'], { NODE_OPTIONS: `--import=${COUNT_OPENS}`, AGENTWATCH_TEST_OPENS_FILE: opens });
    expect(after.results.map((r) => r.session_id)).toEqual(['6d1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f10']);
    expect(JSON.parse(await readFile(opens, 'utf8')), 'opened by the search after the monitor').toEqual([]);
  });
});

describe('GET /api/search in --demo', { timeout: 60_000 }, () => {
  it('searches what the generated sessions said, from an index in memory: the user\'s index is not touched', async () => {
    const t = (home = await makeTempHome());
    const salt = 'search-demo-salt';
    const passphrase = 'search demo passphrase';
    await writeConfig(t, { api_salt: salt });
    const monitor = await startMonitor(['--api', '--demo', '--host', '127.0.0.1:0'], { ...t.env, AGENTWATCH_API_PASSPHRASE: passphrase }, cleanups);
    const { base } = monitor;
    const headers = { authorization: `Bearer ${pbkdf2Sync(passphrase, salt, 600000, 32, 'sha256').toString('base64url')}` };
    const api = async (query: string): Promise<Response> => fetch(`${base}/api/search?${query}`, { headers });
    // The demo's sessions say "tests" in a prompt and in answers as they loop.
    const found = await until(
      'a demo message is searchable',
      async () => {
        const results = (await (await api('q=tests')).json()) as SearchResult[];
        return results.length > 0 ? results : undefined;
      },
      { context: monitor.stderr },
    );
    for (const result of found) expect(AGENT_KINDS).toContain(result.agent);
    expect(found.some((r) => r.snippets.some((s) => /\[tests\]/i.test(s.text)))).toBe(true);
    expect((await api('q=%22open')).status).toBe(400);
    expect((await fetch(`${base}/api/search?q=tests`)).status).toBe(401);
    await monitor.stop();
    expect(await readdir(path.join(t.env.XDG_CACHE_HOME ?? '', 'agentwatch')).catch(() => [])).not.toContain('search.db');
  });
});
