import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LimitAgent } from '../../src/core/agents.js';
import { fetchLimits } from '../../src/limits/fetch-limits.js';
import type { LimitsCtx } from '../../src/limits/context.js';
import type { LimitReport, Outcome } from '../../src/limits/types.js';
import { testCtx } from './helpers/limits-ctx.js';
import { ALL_LOGINS, makeTempHome, type TempHome } from './helpers/temp-home.js';
import { fixture, startVendorServer, type Route, type VendorServer } from './helpers/vendor-server.js';
import { agentLimits } from '../../src/sources/agents.js';

let server: VendorServer;
let home: TempHome;

beforeAll(async () => {
  // Cursor's Source line names the billing-cycle days in the local zone: pin it.
  process.env.TZ = 'UTC';
  server = await startVendorServer();
  home = await makeTempHome(ALL_LOGINS, server.url);
});
afterAll(async () => {
  await server.close();
  await home.remove();
});
afterEach(() => {
  server.requests.length = 0;
});

const fetchOne = async (agent: LimitAgent, route: Route, ctx: Partial<LimitsCtx> = {}): Promise<Outcome> => {
  server.route(agent, route);
  const outcomes = await firstValueFrom(fetchLimits(testCtx(home.env, ctx), [agent], agentLimits));
  const outcome = outcomes[agent];
  if (!outcome) throw new Error(`no outcome for ${agent}`);
  return outcome;
};

const reportsOf = (outcome: Outcome): readonly LimitReport[] => {
  if (outcome.kind !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(outcome)}`);
  return outcome.reports;
};

const TOKENS = {
  claude: (JSON.parse(fixture('claude/credentials.json')) as { claudeAiOauth: { accessToken: string } }).claudeAiOauth.accessToken,
  codex: (JSON.parse(fixture('codex/auth.json')) as { tokens: { access_token: string } }).tokens.access_token,
  kimi: (JSON.parse(fixture('kimi/credentials.json')) as { access_token: string }).access_token,
  cursor: (JSON.parse(fixture('cursor/itemtable.json')) as Record<string, string>)['cursorAuth/accessToken'] ?? '',
};

describe('claude', () => {
  it('maps five_hour and seven_day, sends the beta header and an honest User-Agent', async () => {
    const [report] = reportsOf(await fetchOne('claude', { fixture: 'claude/usage.json' }));
    expect(report).toMatchObject({ row: 'Claude', plan: 'Max' });
    expect(report?.windows).toEqual([
      { label: '5-hour', windowSeconds: 18_000, usedPercent: 61, resetsAt: Date.parse('2026-09-10T16:30:00.123Z') },
      { label: '7-day', windowSeconds: 604_800, usedPercent: 35, resetsAt: Date.parse('2026-09-14T08:00:00.500Z') },
    ]);
    const [request] = server.requests;
    expect(request?.method).toBe('GET');
    expect(request?.headers).toMatchObject({
      authorization: `Bearer ${TOKENS.claude}`,
      'anthropic-beta': 'oauth-2025-04-20',
      'user-agent': 'agentwatch/0.0.0-test (+https://example.invalid/agentwatch)',
    });
  });
  it('keeps an idle window whose reset is null as "not started"', async () => {
    const [report] = reportsOf(await fetchOne('claude', { fixture: 'claude/usage-idle.json' }));
    expect(report?.windows[0]).toMatchObject({ label: '5-hour', usedPercent: 0, resetsAt: null });
  });
  it('fails clearly when neither window came back', async () => {
    expect(await fetchOne('claude', { fixture: 'claude/usage-enterprise-no-windows.json' })).toMatchObject({ kind: 'failed', code: 'E_NO_WINDOWS' });
  });
  it('prefers CLAUDE_CODE_OAUTH_TOKEN over the credentials file', async () => {
    await fetchOne('claude', { fixture: 'claude/usage.json' }, { env: { ...home.env, CLAUDE_CODE_OAUTH_TOKEN: 'env-token-for-claude' } });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer env-token-for-claude');
  });
  it('429 says the endpoint is rate-limited and not to poll, with Retry-After', async () => {
    const outcome = await fetchOne('claude', { status: 429, fixture: 'claude/error-429.json', headers: { 'retry-after': '1800' } });
    expect(outcome).toMatchObject({ kind: 'failed', code: 'E_RATE_LIMITED' });
    expect(outcome.kind === 'failed' && outcome.message).toMatch(/rate-limiting this token \(HTTP 429\) \(Retry-After: 1800\).*do not poll/);
  });
  it('401 says the token expired and to log in with claude', async () => {
    expect(await fetchOne('claude', { status: 401, fixture: 'claude/error-401.json' })).toMatchObject({
      kind: 'failed',
      code: 'E_UNAUTHORIZED',
      message: 'Claude rejected the token (HTTP 401, expired or revoked): run `claude` to log in again',
    });
  });
  it('403 explains the missing scope', async () => {
    const outcome = await fetchOne('claude', { status: 403, fixture: 'claude/error-403.json' });
    expect(outcome).toMatchObject({ kind: 'failed', code: 'E_FORBIDDEN' });
    expect(outcome.kind === 'failed' && outcome.message).toContain('user:profile');
  });
});

describe('claude on macOS: keychain through `security`', () => {
  let bin: string;
  beforeAll(async () => {
    // A stand-in `security` on PATH: prints the keychain secret only for the right service and account.
    bin = path.join(home.dir, 'fake-bin');
    await mkdir(bin, { recursive: true });
    const secret = JSON.stringify({ claudeAiOauth: { accessToken: 'keychain-token-for-claude', subscriptionType: 'pro' } });
    await writeFile(
      path.join(bin, 'security'),
      `#!/bin/sh\n[ "$1 $2 $3 $4 $5 $6" = "find-generic-password -s Claude Code-credentials -a fixture-user -w" ] || exit 44\necho '${secret}'\n`,
    );
    await chmod(path.join(bin, 'security'), 0o755);
  });
  it('reads the keychain before the file on darwin', async () => {
    const env = { ...home.env, PATH: `${bin}:${home.env.PATH}` };
    const [report] = reportsOf(await fetchOne('claude', { fixture: 'claude/usage.json' }, { env, platform: 'darwin' }));
    expect(server.requests[0]?.headers.authorization).toBe('Bearer keychain-token-for-claude');
    expect(report?.plan).toBe('Pro');
  });
  it('never asks the keychain on Linux', async () => {
    const asked: string[] = [];
    const readKeychain = async (service: string): Promise<string | undefined> => {
      asked.push(service);
      return undefined;
    };
    await fetchOne('claude', { fixture: 'claude/usage.json' }, { readKeychain });
    expect(asked).toEqual([]);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TOKENS.claude}`);
  });
});

describe('codex', () => {
  it('identifies windows by their reported length and sends the account id', async () => {
    const [report] = reportsOf(await fetchOne('codex', { fixture: 'codex/usage.json' }));
    expect(report?.windows.map((w) => [w.label, w.usedPercent, w.resetsAt])).toEqual([
      ['5-hour', 80, 1_789_052_400_000],
      ['7-day', 91, 1_789_221_600_000],
    ]);
    expect(server.requests[0]?.headers).toMatchObject({ authorization: `Bearer ${TOKENS.codex}`, 'chatgpt-account-id': '0f6b2c1e-fixture-account' });
  });
  it('reads a weekly-only account (weekly in primary_window) as a 7-day window, no 5-hour', async () => {
    const [report] = reportsOf(await fetchOne('codex', { fixture: 'codex/usage-weekly-only.json' }));
    expect(report).toMatchObject({ plan: 'Prolite', windows: [{ label: '7-day', windowSeconds: 604_800, usedPercent: 17 }] });
  });
  it('401 tells the user to reopen the Codex CLI', async () => {
    const outcome = await fetchOne('codex', { status: 401, fixture: 'codex/error-401.json' });
    expect(outcome).toMatchObject({ kind: 'failed', code: 'E_UNAUTHORIZED' });
    expect(outcome.kind === 'failed' && outcome.message).toContain('open the Codex CLI again');
  });
});

describe('grok', () => {
  it('unified billing: the credit percent, the period as window, the on-demand cap on Source', async () => {
    const [report] = reportsOf(await fetchOne('grok', { fixture: 'grok/billing-unified.json' }));
    expect(report?.windows).toEqual([
      {
        label: 'weekly',
        windowSeconds: 604_800,
        usedPercent: 48.5,
        startsAt: Date.parse('2026-09-07T00:00:00Z'),
        resetsAt: Date.parse('2026-09-14T00:00:00Z'),
        source: '48.5% of weekly credits used (on-demand cap $50.00)',
      },
    ]);
    expect(server.requests[0]?.url).toBe('/v1/billing?format=credits');
  });
  it('an absent percent on a unified account is 0 % (proto3 drops zero values)', async () => {
    const [report] = reportsOf(await fetchOne('grok', { fixture: 'grok/billing-unified-zero.json' }));
    expect(report?.windows[0]).toMatchObject({ usedPercent: 0, source: '0.0% of weekly credits used' });
  });
  it('legacy billing: used / monthlyLimit in cents (int64 as a string), monthly window', async () => {
    const [report] = reportsOf(await fetchOne('grok', { fixture: 'grok/billing-legacy.json' }));
    expect(report?.windows[0]).toMatchObject({ label: 'monthly', usedPercent: 25, source: '$250.00 of $1000.00 included credits used' });
  });
  it('401 says to run grok login', async () => {
    expect(await fetchOne('grok', { status: 401, fixture: 'grok/error-401.json' })).toMatchObject({
      kind: 'failed',
      code: 'E_UNAUTHORIZED',
      message: expect.stringContaining('run `grok login`'),
    });
  });
  it('takes the first auth.json entry with a non-empty key', async () => {
    await fetchOne('grok', { fixture: 'grok/billing-unified.json' });
    expect(server.requests[0]?.headers.authorization).toMatch(/^Bearer eyJ/);
  });
});

describe('kimi', () => {
  it('string counts: the weekly quota plus each rolling window, labeled by duration', async () => {
    const [report] = reportsOf(await fetchOne('kimi', { fixture: 'kimi/usages.json' }));
    expect(report).toMatchObject({ plan: 'Advanced' });
    expect(report?.windows.map((w) => [w.label, w.windowSeconds, w.usedPercent, w.source])).toEqual([
      ['weekly', 604_800, 20, '300 of 1500 used (weekly quota; parallel limit 3)'],
      ['5-hour', 18_000, 45, '45 of 100 used'],
    ]);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TOKENS.kimi}`);
  });
  it('shows totalQuota counts on the Source line when present (used derived from remaining)', async () => {
    const [report] = reportsOf(await fetchOne('kimi', { fixture: 'kimi/usages-total-quota.json' }));
    expect(report?.windows[0]?.source).toBe('300 of 1500 used (weekly quota; total 900 of 6000 used; parallel limit 3)');
  });
  it('derives used from remaining when used is absent', async () => {
    const [report] = reportsOf(await fetchOne('kimi', { fixture: 'kimi/usages-minimal.json' }));
    expect(report?.windows.map((w) => [w.label, w.usedPercent])).toEqual([
      ['weekly', (48 / 2048) * 100],
      ['5-hour', 0],
    ]);
  });
  it('appends /usages to KIMI_CODE_BASE_URL when it is set', async () => {
    await fetchOne('kimi', { fixture: 'kimi/usages.json' }, { env: { ...home.env, KIMI_CODE_BASE_URL: `${server.url}/coding/v1/` } });
    expect(server.requests[0]?.url).toBe('/coding/v1/usages');
  });
  it("401 surfaces the server's message and says to run kimi login", async () => {
    const outcome = await fetchOne('kimi', { status: 401, fixture: 'kimi/error-401.json' });
    expect(outcome).toMatchObject({ kind: 'failed', code: 'E_UNAUTHORIZED' });
    expect(outcome.kind === 'failed' && outcome.message).toBe('Kimi rejected the token (HTTP 401: Invalid Authentication): run `kimi login` or reopen the Kimi CLI');
  });
});

describe('cursor', () => {
  it("reads the token from a real state.vscdb and sends Cursor's session cookie", async () => {
    const reports = reportsOf(await fetchOne('cursor', { fixture: 'cursor/usage-summary.json' }));
    expect(reports.map((r) => [r.row, r.plan, r.windows[0]?.usedPercent, r.windows[0]?.label])).toEqual([
      ['Cursor Models', 'Pro+', 12.25, 'monthly'],
      ['Cursor API', 'Pro+', 70.5, 'monthly'],
    ]);
    expect(reports[0]?.windows[0]?.source).toBe('12.3% of the included Auto/Composer usage (Pro+), cycle 20 Aug - 20 Sep');
    expect(server.requests[0]?.headers.cookie).toBe(`WorkosCursorSessionToken=user_01FIXTURECURSOR000000000%3A%3A${TOKENS.cursor}`);
  });
  it('skips an unlimited account and one without an enabled plan (nothing to pace)', async () => {
    expect(await fetchOne('cursor', { fixture: 'cursor/usage-summary-unlimited.json' })).toMatchObject({ kind: 'skipped', reason: 'nothing-to-pace' });
    expect(await fetchOne('cursor', { fixture: 'cursor/usage-summary-no-plan.json' })).toMatchObject({ kind: 'skipped', reason: 'nothing-to-pace' });
  });
});

describe('transport failures and secrets', () => {
  it('times out after the per-request timeout with its own message', async () => {
    const outcome = await fetchOne('codex', { fixture: 'codex/usage.json', delayMs: 2_000 }, { timeoutMs: 150 });
    expect(outcome).toMatchObject({ kind: 'failed', code: 'E_TIMEOUT', message: expect.stringMatching(/^no answer from 127\.0\.0\.1:\d+ within 0\.15 s/) });
  });
  it('reports a TLS failure (https spoken to a plain HTTP port)', async () => {
    const env = { ...home.env, AGENTWATCH_GROK_API_URL: server.url.replace('http:', 'https:') };
    expect(await fetchOne('grok', { fixture: 'grok/billing-unified.json' }, { env })).toMatchObject({ kind: 'failed', code: 'E_TLS' });
  });
  it('reports a DNS failure', async () => {
    const env = { ...home.env, AGENTWATCH_KIMI_API_URL: 'http://agentwatch-test.invalid' };
    expect(await fetchOne('kimi', { fixture: 'kimi/usages.json' }, { env })).toMatchObject({ kind: 'failed', code: 'E_DNS', message: expect.stringContaining('could not resolve agentwatch-test.invalid') });
  });
  it('reports a refused connection', async () => {
    const closed = await startVendorServer();
    await closed.close();
    const env = { ...home.env, AGENTWATCH_CODEX_API_URL: closed.url };
    expect(await fetchOne('codex', { fixture: 'codex/usage.json' }, { env })).toMatchObject({
      kind: 'failed',
      code: 'E_NETWORK',
      message: `could not connect to ${closed.url.slice('http://'.length)} (connection refused)`,
    });
  });
  it('rejects a base URL that is not http(s)', async () => {
    const env = { ...home.env, AGENTWATCH_CLAUDE_API_URL: 'ftp://example.com' };
    expect(await fetchOne('claude', { fixture: 'claude/usage.json' }, { env })).toMatchObject({ kind: 'failed', code: 'E_BAD_URL', message: expect.stringContaining('AGENTWATCH_CLAUDE_API_URL') });
  });
  it('5xx is a server error with a snippet; a body echoing the token is redacted', async () => {
    const outcome = await fetchOne('claude', { status: 502, body: `upstream failed for Bearer ${TOKENS.claude}` });
    expect(outcome).toMatchObject({ kind: 'failed', code: 'E_SERVER' });
    expect(JSON.stringify(outcome)).not.toContain(TOKENS.claude);
    expect(outcome.kind === 'failed' && outcome.message).toContain('Bearer <redacted>');
  });
  it('a large junk answer is cut to a short snippet', async () => {
    const outcome = await fetchOne('codex', { body: `<html>${'x'.repeat(900_000)}</html>` });
    expect(outcome).toMatchObject({ kind: 'failed', code: 'E_SCHEMA_DRIFT' });
    expect(outcome.kind === 'failed' && outcome.message.length).toBeLessThan(400);
  });
  it('an answer over 1 MiB is not read: a per-agent E_TOO_LARGE error', async () => {
    const outcome = await fetchOne('codex', { body: `<html>${'x'.repeat(2_000_000)}</html>` });
    expect(outcome).toMatchObject({ kind: 'failed', code: 'E_TOO_LARGE', message: expect.stringMatching(/is larger than 1 MiB; not read/) });
  });
  it('a broken credential file is a clear error that never quotes the file', async () => {
    const broken = await makeTempHome({}, server.url);
    try {
      await mkdir(path.join(broken.dir, '.codex'), { recursive: true });
      await writeFile(path.join(broken.dir, '.codex', 'auth.json'), `{"tokens": {"access_token": "half-written-secret`);
      const outcomes = await firstValueFrom(fetchLimits(testCtx(broken.env), ['codex'], agentLimits));
      expect(outcomes.codex).toMatchObject({ kind: 'failed', code: 'E_BAD_CREDENTIAL', message: expect.stringContaining('auth.json is not valid JSON') });
      expect(JSON.stringify(outcomes)).not.toContain('half-written-secret');
    } finally {
      await broken.remove();
    }
  });
  it('without any login every agent is skipped and nothing is requested', async () => {
    const empty = await makeTempHome({ kimi: 'kimi/credentials-tombstone.json' }, server.url);
    try {
      const outcomes = await firstValueFrom(fetchLimits(testCtx(empty.env), ['claude', 'codex', 'grok', 'kimi', 'cursor'], agentLimits));
      expect(Object.values(outcomes).map((o) => o.kind)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'skipped']);
      expect(server.requests).toEqual([]);
    } finally {
      await empty.remove();
    }
  });
});
