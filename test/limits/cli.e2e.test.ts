import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LimitAgent } from '../../src/core/agents.js';
import { runCli } from './helpers/run-cli.js';
import { ALL_LOGINS, makeTempHome, type Logins, type TempHome } from './helpers/temp-home.js';
import { fixture, startVendorServer, type Route, type VendorServer } from './helpers/vendor-server.js';

/** `agentwatch limits` spawned as a process against a loopback server playing every vendor. */

const GOOD: Record<LimitAgent, Route> = {
  claude: { fixture: 'claude/usage.json' },
  codex: { fixture: 'codex/usage.json' },
  grok: { fixture: 'grok/billing-unified.json' },
  kimi: { fixture: 'kimi/usages.json' },
  cursor: { fixture: 'cursor/usage-summary.json' },
};

const SECRETS = [
  (JSON.parse(fixture('claude/credentials.json')) as { claudeAiOauth: { accessToken: string; refreshToken: string } }).claudeAiOauth.accessToken,
  (JSON.parse(fixture('codex/auth.json')) as { tokens: { access_token: string } }).tokens.access_token,
  (JSON.parse(fixture('grok/auth.json')) as Record<string, { key: string }>)['https://auth.x.ai::fixture-client']?.key ?? 'missing',
  (JSON.parse(fixture('kimi/credentials.json')) as { access_token: string }).access_token,
  (JSON.parse(fixture('cursor/itemtable.json')) as Record<string, string>)['cursorAuth/accessToken'] ?? 'missing',
];

let server: VendorServer;
const homes: TempHome[] = [];

const home = async (logins: Logins = ALL_LOGINS): Promise<TempHome> => {
  const made = await makeTempHome(logins, server.url);
  homes.push(made);
  return made;
};

const routeAll = (overrides: Partial<Record<LimitAgent, Route>> = {}): void => {
  for (const agent of Object.keys(GOOD) as LimitAgent[]) server.route(agent, overrides[agent] ?? GOOD[agent]);
};

const expectNoSecrets = (text: string): void => {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
};

beforeAll(async () => {
  server = await startVendorServer();
});
beforeEach(() => {
  server.requests.length = 0;
  routeAll();
});
afterEach(async () => {
  await Promise.all(homes.splice(0).map((h) => h.remove()));
});
afterAll(async () => {
  await server.close();
});

describe('agentwatch limits (all agents answer)', () => {
  it('prints the bordered summary, exit 0, one honest GET per agent, no colors when piped', async () => {
    const h = await home();
    const result = await runCli(['limits'], h.env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const rows = result.stdout.split('\n').filter((line) => line.startsWith('│'));
    expect(rows.map((line) => line.split('│')[1]?.trim())).toEqual(['Agent', 'Claude', 'Codex', 'Grok', 'Kimi', 'Cursor Models', 'Cursor API']);
    expect(result.stdout).toMatch(/│ Claude +│ 61\.0% used \/ \d+\.\d% exp │ 35\.0% used \/ \d+\.\d% exp │/);
    expect(result.stdout).toMatch(/│ Grok +│ -- +│ 48\.5% used/);
    expect(result.stdout).toMatch(/│ Cursor API +│ -- +│ 70\.5% used/);
    expect(result.stdout).not.toContain('\x1b[');
    expect(server.requests.map((r) => r.agent).sort()).toEqual(['claude', 'codex', 'cursor', 'grok', 'kimi']);
    for (const request of server.requests) {
      expect(request.method).toBe('GET');
      expect(request.headers['user-agent']).toBe('agentwatch/0.1.0 (+https://github.com/agentwatch/agentwatch)');
    }
  });

  it('--json prints the documented document with the same exit code', async () => {
    const h = await home();
    const result = await runCli(['limits', '--json'], h.env);
    expect(result.code).toBe(0);
    const doc = JSON.parse(result.stdout) as { generated_at: string; rows: { row: string; status: string; windows: { label: string; used_percent: number; resets_at: string }[] }[] };
    expect(Number.isNaN(Date.parse(doc.generated_at))).toBe(false);
    expect(doc.rows.map((r) => [r.row, r.status, r.windows.map((w) => `${w.label}:${w.used_percent}`).join(',')])).toEqual([
      ['Claude', 'ok', '5-hour:61,7-day:35'],
      ['Codex', 'ok', '5-hour:80,7-day:91'],
      ['Grok', 'ok', 'weekly:48.5'],
      ['Kimi', 'ok', '5-hour:45,weekly:20'],
      ['Cursor Models', 'ok', 'monthly:12.25'],
      ['Cursor API', 'ok', 'monthly:70.5'],
    ]);
    expect(doc.rows[0]?.windows[0]?.resets_at).toBe('2026-09-10T16:30:00.123Z');
  });

  it('--detailed prints one block per summary row with Used, Elapsed, Resets, Pace and Note', async () => {
    const h = await home();
    const result = await runCli(['limits', '--detailed'], h.env);
    expect(result.code).toBe(0);
    const blocks = result.stdout.trim().split('\n\n');
    expect(blocks.map((b) => b.split('\n')[0])).toEqual(['Claude (Max)', 'Codex (Plus)', 'Grok', 'Kimi (Advanced)', 'Cursor Models (Pro+)', 'Cursor API (Pro+)']);
    for (const block of blocks) expect(block).toMatch(/Used .*█[\s\S]*Elapsed[\s\S]*Resets [\s\S]*Pace [\s\S]*Note: /);
    expect(result.stdout).toContain('Source: 300 of 1500 used (weekly quota; parallel limit 3)');
  });

  it('FORCE_COLOR colors a piped report; NO_COLOR alone keeps it plain', async () => {
    const h = await home();
    expect((await runCli(['limits'], { ...h.env, FORCE_COLOR: '1' })).stdout).toContain('\x1b[31m');
    expect((await runCli(['limits'], { ...h.env, NO_COLOR: '1' })).stdout).not.toContain('\x1b[');
  });

  it('writes nothing: the temp home is byte-for-byte the same set of files, no config is created', async () => {
    const h = await home();
    const before = await h.listFiles();
    expect((await runCli(['limits', '--detailed'], h.env)).code).toBe(0);
    expect(await h.listFiles()).toEqual(before);
    expect(existsSync(path.join(h.env.XDG_CONFIG_HOME ?? '', 'agentwatch'))).toBe(false);
  });
});

describe('concurrency', () => {
  it('asks all five vendors at once: each answer is held until all five requests have arrived', async () => {
    const h = await home();
    // One after the other, the first request would wait for ever on an answer held for the other
    // four (its 10-second timeout would fail it): order, not time, is what is checked.
    routeAll(Object.fromEntries(Object.entries(GOOD).map(([agent, route]) => [agent, { ...route, holdUntilRequests: 5 }])));
    const result = await runCli(['limits'], h.env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(server.requests.map((r) => r.agent).sort()).toEqual(['claude', 'codex', 'cursor', 'grok', 'kimi']);
  });
});

describe('partial failure: the other agents still print, exit 1', () => {
  it.each([
    ['claude', { fixture: 'claude/drift-renamed.json' }, /^Error \(claude\): the response shape changed \(five_hour: .*\); not showing stale figures/m],
    ['codex', { status: 401, fixture: 'codex/error-401.json' }, /^Error \(codex\): Codex rejected the token \(HTTP 401\): open the Codex CLI again to refresh your login$/m],
    ['kimi', { status: 401, fixture: 'kimi/error-401.json' }, /^Error \(kimi\): Kimi rejected the token \(HTTP 401: Invalid Authentication\): run `kimi login` or reopen the Kimi CLI$/m],
    ['claude', { status: 429, fixture: 'claude/error-429.json', headers: { 'retry-after': '600' } }, /^Error \(claude\): the usage endpoint is rate-limiting this token \(HTTP 429\) \(Retry-After: 600\); wait before trying again and do not poll it$/m],
    ['grok', { status: 503, body: 'upstream unavailable' }, /^Error \(grok\): the server failed \(HTTP 503\): upstream unavailable$/m],
    ['cursor', { fixture: 'cursor/drift-percent-string.json' }, /^Error \(cursor\): the response shape changed \(individualUsage\.plan\.autoPercentUsed: /m],
  ] as [LimitAgent, Route, RegExp][])('%s %j', async (agent, route, message) => {
    const h = await home();
    routeAll({ [agent]: route });
    const result = await runCli(['limits'], h.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    const printed = result.stdout.split('\n').filter((l) => l.startsWith('│')).map((l) => l.split('│')[1]?.trim());
    expect(printed).toHaveLength(agent === 'cursor' ? 5 : 6);
    expectNoSecrets(result.stdout + result.stderr);
  });

  it('a server echoing the token back never gets it printed', async () => {
    const h = await home();
    routeAll(Object.fromEntries(Object.keys(GOOD).map((agent, i) => [agent, { status: 500, body: `failed for token ${SECRETS[i] ?? ''}` }])));
    const result = await runCli(['limits', '--json'], h.env);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(5);
    expect(result.stderr).toContain('<redacted>');
    expectNoSecrets(result.stdout + result.stderr);
  });

  it('a 10-second request timeout fails only the slow agent', async () => {
    const h = await home();
    // The answer would come after 25 s: a run that ends well before it gave up at its own 10 s.
    routeAll({ claude: { ...GOOD.claude, delayMs: 25_000 } });
    const result = await runCli(['limits'], h.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error \(claude\): no answer from 127\.0\.0\.1:\d+ within 10 s \(request timed out\)$/m);
    expect(result.stdout).toContain('│ Codex');
    expect(result.ms).toBeGreaterThanOrEqual(10_000);
    expect(result.ms).toBeLessThan(20_000);
  }, 60_000);
});

describe('availability: silent skips under all, errors for an agent named', () => {
  it('--agent all skips agents without a login silently', async () => {
    const h = await home({ codex: 'codex/auth.json' });
    routeAll({ codex: { fixture: 'codex/usage-weekly-only.json' } });
    const result = await runCli(['limits', '--agent', 'all'], h.env);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/│ Codex +│ -- +│ 17\.0% used/);
    expect(server.requests.map((r) => r.agent)).toEqual(['codex']);
  });

  it('with no login at all: one guidance message, exit 1, no request', async () => {
    const h = await home({});
    const result = await runCli(['limits'], h.env);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/no agent to report on.*`claude`.*`codex`.*`grok login`.*`kimi login`.*Cursor/);
    expect(server.requests).toEqual([]);
  });

  it('a user with Claude sessions but no login is told which file was looked for and what to run', async () => {
    const h = await home({ codex: 'codex/auth.json' });
    const project = path.join(h.dir, '.claude', 'projects', '-home-dev-shop');
    await mkdir(project, { recursive: true });
    await writeFile(path.join(project, 'a.jsonl'), '{}\n');
    const result = await runCli(['limits'], h.env);
    // Codex answers; Claude is not an error, so the exit code stays 0.
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Codex');
    expect(result.stderr.trim().split('\n')).toEqual([
      `Note (claude): no Claude login found: run \`claude\` to log in (or set CLAUDE_CODE_OAUTH_TOKEN); it has sessions here (${path.join(h.dir, '.claude', 'projects')}), and its login was looked for in ${path.join(h.dir, '.claude', '.credentials.json')}`,
    ]);
  });

  it('an explicit agent without a login is a friendly error, exit 1', async () => {
    const h = await home({ claude: 'claude/credentials.json' });
    const result = await runCli(['limits', '--agent', 'grok'], h.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('Error (grok): no Grok login found: run `grok login` (or set GROK_OAUTH_TOKEN)\n');
    expect(server.requests).toEqual([]);
  });

  it('cursor unlimited: both rows skipped silently under all, an actionable error under --agent cursor', async () => {
    const h = await home();
    routeAll({ cursor: { fixture: 'cursor/usage-summary-unlimited.json' } });
    const all = await runCli(['limits'], h.env);
    expect(all.code).toBe(0);
    expect(all.stderr).toBe('');
    expect(all.stdout).not.toContain('Cursor');
    const single = await runCli(['limits', '--agent', 'cursor'], h.env);
    expect(single.code).toBe(1);
    expect(single.stderr).toBe('Error (cursor): Cursor reports this account (enterprise) as unlimited: there is no budget to pace\n');
  });

  it('--agent X queries only X', async () => {
    const h = await home();
    const result = await runCli(['limits', '--agent', 'kimi', '--json'], h.env);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as { rows: { row: string }[] }).rows.map((r) => r.row)).toEqual(['Kimi']);
    expect(server.requests.map((r) => r.agent)).toEqual(['kimi']);
  });
});

describe('bad flags exit 2 without querying anything', () => {
  it.each([
    [['limits', '--agent', 'amp'], /Invalid value for --agent: "amp" \(expected one of claude, codex, grok, kimi, cursor, all\)/],
    [['limits', '--agent'], /Flag --agent needs a value/],
    [['limits', '--watch'], /Unknown flag --watch/],
    [['limits', 'claude'], /Unexpected argument "claude"/],
  ])('%j', async (args, message) => {
    const h = await home();
    const result = await runCli(args, h.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expect(server.requests).toEqual([]);
  });
});
