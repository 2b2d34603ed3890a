import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMIT_AGENTS } from '../../../src/core/agents.js';
import { REQUEST_TIMEOUT_MS, type LimitsCtx } from '../../../src/limits/context.js';
import { sqliteCursorTokenRead } from '../../../src/limits/cursor-db.js';
import { fetchLimits } from '../../../src/limits/fetch-limits.js';
import { gotGet } from '../../../src/limits/http.js';
import { securityKeychainRead } from '../../../src/limits/keychain.js';
import { renderDetailed } from '../../../src/limits/render-detailed.js';
import { renderTable } from '../../../src/limits/render-table.js';
import { limitsText, readLimits } from '../../../src/sinks/tui/limits.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';
import { fixture, startClaudeVendor, type Vendor } from './vendor.js';
import { agentLimits } from '../../../src/sources/agents.js';

const NOW = Date.parse('2026-09-10T14:00:00Z');
let home: TempHome;
let vendor: Vendor;
let ctx: LimitsCtx;

beforeAll(async () => {
  home = await makeTempHome('agentwatch-tui-limits-');
  vendor = await startClaudeVendor();
  await mkdir(path.join(home.home, '.claude'), { recursive: true });
  await writeFile(path.join(home.home, '.claude', '.credentials.json'), fixture('claude/credentials.json'));
  ctx = {
    env: { ...home.env, AGENTWATCH_CLAUDE_API_URL: vendor.url },
    platform: 'linux',
    now: () => NOW,
    timeoutMs: REQUEST_TIMEOUT_MS,
    userAgent: 'agentwatch/0.0.0-test (+https://example.invalid)',
    get: gotGet,
    readKeychain: securityKeychainRead,
    readCursorToken: sqliteCursorTokenRead,
  };
});
afterAll(async () => {
  await vendor.close();
  await home.cleanup();
});

describe('limits modal text', () => {
  it('is the same table and detailed report `agentwatch limits` prints, colors off', async () => {
    const outcomes = await firstValueFrom(fetchLimits(ctx, LIMIT_AGENTS, agentLimits));
    const text = limitsText(outcomes, NOW, 76);
    const options = { color: false, now: NOW, width: 76 };
    expect(text.summary.join('\n')).toBe(renderTable(outcomes, options).trimEnd());
    expect(text.detailed.join('\n')).toBe(renderDetailed(outcomes, options).trimEnd());
    expect(text.summary.join('\n')).toContain('61.0% used');
  });

  it('reads once per call, through the vendor endpoint, and never on its own', async () => {
    const before = vendor.requests.length;
    const text = (await readLimits(ctx))(76);
    expect(vendor.requests.length - before).toBe(1);
    expect(vendor.requests.at(-1)?.path).toBe('/api/oauth/usage');
    expect(text.summary.some((line) => line.includes('Claude'))).toBe(true);
    expect(text.detailed.some((line) => /Used|used/.test(line))).toBe(true);
  });

  it('shows the per-agent error lines and the guidance when nothing is available', () => {
    const failed = limitsText({ claude: { kind: 'failed', agent: 'claude', code: 'E_UNAUTHORIZED', message: 'the token was rejected (HTTP 401)' } }, NOW, 76);
    expect(failed.summary).toContain('Error (claude): the token was rejected (HTTP 401)');
    const none = limitsText({ claude: { kind: 'skipped', agent: 'claude', reason: 'no-credential', message: 'not logged in' } }, NOW, 76);
    expect(none.summary.join('\n').length).toBeGreaterThan(0);
    expect(none.detailed).toEqual(none.summary);
  });
});

describe('limits modal text at the modal width (notes wrapped once)', () => {
  it.each([60, 76])('at %i cells every detailed line fits (the modal never wraps it again) and each note reads whole', async (width) => {
    const { sampleOutcomes } = await import('../../../src/limits/sample.js');
    const text = limitsText(sampleOutcomes(NOW, LIMIT_AGENTS), NOW, width);
    for (const line of text.detailed) expect([...line].length, line).toBeLessThanOrEqual(width);
    // A note wrapped once continues on the next lines; joined back it is the whole sentence, once per agent.
    const joined = text.detailed.join(' ').replace(/\s+/g, ' ');
    // Six rows: cursor has two (Models, API).
    expect(joined.split('Sample data (--demo): generated, not your usage.').length - 1).toBe(6);
  });
});

describe('report headings: the plan in one parenthesis', () => {
  it('--demo: every heading reads "Row (Plan, sample)", never nested; both Cursor rows carry the plan, as a real report does', async () => {
    const { sampleOutcomes } = await import('../../../src/limits/sample.js');
    const text = limitsText(sampleOutcomes(NOW, LIMIT_AGENTS), NOW, 76);
    const headings = text.detailed.filter((line) => /^\S/.test(line));
    expect(headings).toEqual(['Claude (Max, sample)', 'Codex (Plus, sample)', 'Grok', 'Kimi', 'Cursor Models (Pro, sample)', 'Cursor API (Pro, sample)']);
    for (const line of text.detailed) expect(line).not.toMatch(/\([^)]*\(/);
  });

  it('a real plan keeps its plain form', async () => {
    const { reportTitle } = await import('../../../src/limits/present-plan.js');
    expect(reportTitle('Claude', 'Max')).toBe('Claude (Max)');
    expect(reportTitle('Cursor API', 'Pro+')).toBe('Cursor API (Pro+)');
    expect(reportTitle('Grok')).toBe('Grok');
  });
});

describe('the limits modal with no agent to report on', () => {
  it('guides without the CLI\'s name in front', () => {
    const text = limitsText({ claude: { kind: 'skipped', agent: 'claude', reason: 'no-credential', message: 'not logged in' } }, NOW, 100);
    const guidance = text.summary.find((line) => line.includes('to report on')) ?? '';
    expect(guidance).toMatch(/^No agent to report on\./);
    expect(text.summary.join('\n')).not.toContain('agentwatch limits:');
  });
});

describe("Codex's session file beside the live answer", () => {
  const live = { label: '5-hour', windowSeconds: 18_000, usedPercent: 80, resetsAt: NOW + 3_600_000, source: 'live' };
  const snapshot = { ...live, usedPercent: 12, source: 'session file', observedAt: NOW - 180_000, note: "from Codex's session file, 3 min ago" };

  it('shows the snapshot as its own line under the live one, and says which is which in the detailed view', () => {
    const text = limitsText({ codex: { kind: 'ok', agent: 'codex', reports: [{ row: 'Codex', windows: [live, snapshot] }] } }, NOW, 76);
    expect(text.summary.find((line) => line.includes('Codex'))).toContain('80.0% used');
    expect(text.summary.find((line) => line.includes('session file, 3 min ago'))).toContain('12.0% used');
    expect(text.detailed.filter((line) => line.includes('Source:')).map((line) => line.trim())).toEqual(['Source: live', 'Source: session file, 3 min ago']);
  });

  it('still shows the snapshot when the live call failed, with what failed', () => {
    const text = limitsText({ codex: { kind: 'failed', agent: 'codex', code: 'E_UNAUTHORIZED', message: 'Codex rejected the token (HTTP 401)', reports: [{ row: 'Codex', windows: [snapshot] }] } }, NOW, 76);
    expect(text.summary.find((line) => line.includes('Codex'))).toContain('12.0% used');
    expect(text.summary).toContain('Error (codex): Codex rejected the token (HTTP 401)');
    expect(text.summary.join('\n')).not.toContain('agentwatch limits:');
  });
});
