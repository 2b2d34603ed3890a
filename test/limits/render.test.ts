import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMIT_AGENTS } from '../../src/core/agents.js';
import { fetchLimits } from '../../src/limits/fetch-limits.js';
import { shouldColor } from '../../src/limits/palette.js';
import { renderDetailed } from '../../src/limits/render-detailed.js';
import { limitsJson } from '../../src/limits/render-json.js';
import { renderTable } from '../../src/limits/render-table.js';
import type { Outcomes } from '../../src/limits/types.js';
import { REF_NOW, testCtx } from './helpers/limits-ctx.js';
import { ALL_LOGINS, makeTempHome, type TempHome } from './helpers/temp-home.js';
import { startVendorServer, type VendorServer } from './helpers/vendor-server.js';
import { agentLimits } from '../../src/sources/agents.js';

let server: VendorServer;
let home: TempHome;
let all: Outcomes;

/** Real providers against the loopback vendor, so the snapshots show what users would see. */
const fetchAll = async (): Promise<Outcomes> => firstValueFrom(fetchLimits(testCtx(home.env), LIMIT_AGENTS, agentLimits));

beforeAll(async () => {
  // Cursor's Source line names the billing-cycle days in the local zone: pin it.
  process.env.TZ = 'UTC';
  server = await startVendorServer({
    claude: { fixture: 'claude/usage.json' },
    codex: { fixture: 'codex/usage.json' },
    grok: { fixture: 'grok/billing-unified.json' },
    kimi: { fixture: 'kimi/usages.json' },
    cursor: { fixture: 'cursor/usage-summary.json' },
  });
  home = await makeTempHome(ALL_LOGINS, server.url);
  all = await fetchAll();
});
afterAll(async () => {
  await server.close();
  await home.remove();
});

const plain = { color: false, now: REF_NOW, width: 100, tz: 'UTC' } as const;

describe('summary table', () => {
  it('matches the stored snapshot (colors off, width 100, UTC)', async () => {
    await expect(renderTable(all, plain)).toMatchFileSnapshot('__snapshots__/table.txt');
  });
  it('stacks rows when the terminal is too narrow for the table', async () => {
    await expect(renderTable(all, { ...plain, width: 60 })).toMatchFileSnapshot('__snapshots__/table-narrow.txt');
  });
  it('leaves out agents that failed or were skipped', () => {
    const partial: Outcomes = { ...all, claude: { kind: 'failed', agent: 'claude', code: 'E_SCHEMA_DRIFT', message: 'x' }, grok: { kind: 'skipped', agent: 'grok', reason: 'no-credential', message: 'y' } };
    const table = renderTable(partial, plain);
    expect(table).not.toMatch(/Claude|Grok/);
    expect(table).toMatch(/Codex[\s\S]*Kimi[\s\S]*Cursor Models[\s\S]*Cursor API/);
  });
  it('is empty when no agent answered', () => {
    expect(renderTable({ claude: { kind: 'skipped', agent: 'claude', reason: 'no-credential', message: 'z' } }, plain)).toBe('');
  });
  it('colors cells by severity only when asked: red over 90% or over pace, orange over 75%, green under pace', () => {
    const colored = renderTable(all, { ...plain, color: true });
    const red = '\x1b[31m';
    const orange = '\x1b[38;5;208m';
    const green = '\x1b[32m';
    expect(colored).toContain(`${orange}80.0% used / 80.0% exp`); // codex 5h: on pace but >= 75
    expect(colored).toContain(`${red}91.0% used / 71.4% exp`); // codex week: >= 90
    expect(colored).toContain(`${red}61.0% used / 50.0% exp`); // claude 5h: over pace
    expect(colored).toContain(`${green}35.0% used / 46.4% exp`); // claude week: under pace
    expect(renderTable(all, plain)).not.toContain('\x1b[');
  });
});

describe('detailed report', () => {
  it('matches the stored snapshot (colors off, width 100, UTC)', async () => {
    await expect(renderDetailed(all, plain)).toMatchFileSnapshot('__snapshots__/detailed.txt');
  });
  it('shows a dash for pace and "not started" for an idle window', async () => {
    server.route('claude', { fixture: 'claude/usage-idle.json' });
    const idle = await firstValueFrom(fetchLimits(testCtx(home.env), ['claude'], agentLimits));
    server.route('claude', { fixture: 'claude/usage.json' });
    const text = renderDetailed(idle, plain);
    expect(text).toContain('Resets   not started');
    expect(text).toMatch(/Pace {5}- {2}\(under 1% of the window has elapsed\)/);
  });
  it('colors the used bar by level and the pace label by pace', () => {
    const colored = renderDetailed(all, { ...plain, color: true });
    expect(colored).toContain('\x1b[31moverutilizing'); // claude 5-hour
    expect(colored).toContain('\x1b[32mon track'); // codex 5-hour
    expect(colored).toContain('\x1b[90munderutilizing'); // muted
    expect(colored).toContain('\x1b[38;5;208m████'); // codex 5-hour bar at 80 %: orange
  });
});

describe('JSON document', () => {
  it('has generated_at and one row per summary row with computed windows', () => {
    const doc = limitsJson(all, REF_NOW);
    expect(doc.generated_at).toBe('2026-09-10T14:00:00.000Z');
    expect(doc.rows.map((r) => [r.row, r.agent, r.status, r.plan])).toEqual([
      ['Claude', 'claude', 'ok', 'Max'],
      ['Codex', 'codex', 'ok', 'Plus'],
      ['Grok', 'grok', 'ok', undefined],
      ['Kimi', 'kimi', 'ok', 'Advanced'],
      ['Cursor Models', 'cursor', 'ok', 'Pro+'],
      ['Cursor API', 'cursor', 'ok', 'Pro+'],
    ]);
    expect(doc.rows[1]?.windows[1]).toEqual({
      label: '7-day',
      window_seconds: 604_800,
      used_percent: 91,
      elapsed_percent: 71.43,
      expected_percent: 71.43,
      resets_at: '2026-09-12T14:00:00.000Z',
      pace: 'overutilizing',
      note: expect.stringContaining('/backend-api/wham/usage'),
    });
    expect(doc.rows[2]?.windows[0]).toMatchObject({ label: 'weekly', source: '48.5% of weekly credits used (on-demand cap $50.00)', pace: 'on track' });
  });
  it('lists failed rows with their error and skipped rows without windows (cursor: both rows)', () => {
    const doc = limitsJson({ claude: { kind: 'failed', agent: 'claude', code: 'E_RATE_LIMITED', message: 'slow down' }, cursor: { kind: 'skipped', agent: 'cursor', reason: 'nothing-to-pace', message: 'unlimited' } }, REF_NOW);
    expect(doc.rows).toEqual([
      { row: 'Claude', agent: 'claude', status: 'failed', error: 'slow down', windows: [] },
      { row: 'Cursor Models', agent: 'cursor', status: 'skipped', windows: [] },
      { row: 'Cursor API', agent: 'cursor', status: 'skipped', windows: [] },
    ]);
  });
  it('pace is null and resets_at null for an idle window', () => {
    const idle: Outcomes = { claude: { kind: 'ok', agent: 'claude', reports: [{ row: 'Claude', windows: [{ label: '5-hour', windowSeconds: 18_000, usedPercent: 0, resetsAt: null }] }] } };
    expect(limitsJson(idle, REF_NOW).rows[0]?.windows[0]).toEqual({ label: '5-hour', window_seconds: 18_000, used_percent: 0, elapsed_percent: 0, expected_percent: 0, resets_at: null, pace: null });
  });
});

describe('color detection', () => {
  it('TTY only; NO_COLOR disables; FORCE_COLOR (not 0) forces', () => {
    expect(shouldColor({}, true)).toBe(true);
    expect(shouldColor({}, false)).toBe(false);
    expect(shouldColor({}, undefined)).toBe(false);
    expect(shouldColor({ NO_COLOR: '1' }, true)).toBe(false);
    expect(shouldColor({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(shouldColor({ FORCE_COLOR: '0' }, true)).toBe(false);
  });
});
