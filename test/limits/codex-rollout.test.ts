import { appendFile, copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchLimits } from '../../src/limits/fetch-limits.js';
import { renderDetailed } from '../../src/limits/render-detailed.js';
import { limitsJson } from '../../src/limits/render-json.js';
import { renderTable } from '../../src/limits/render-table.js';
import { exitCodeOf } from '../../src/limits/rows.js';
import { FIXTURES } from '../helpers/source-harness.js';
import { REF_NOW, testCtx } from './helpers/limits-ctx.js';
import { makeTempHome, type Logins, type TempHome } from './helpers/temp-home.js';
import { startVendorServer, type VendorServer } from './helpers/vendor-server.js';
import { agentLimits } from '../../src/sources/agents.js';

const ROLLOUT = 'rollout-2026-09-10T13-40-00-0199e0c1-2a3b-7c4d-8e5f-6a7b8c9d0e1f.jsonl';

let home: TempHome | undefined;
let server: VendorServer | undefined;
afterEach(async () => {
  await home?.remove();
  await server?.close();
  home = undefined;
  server = undefined;
});

/** A home whose Codex wrote one rollout (under `codexHome` inside the home, `.codex` by default); no Codex login unless given. */
const homeWithRollout = async (codexHome = '.codex', logins: Logins = {}, baseUrl = 'http://127.0.0.1:9', rollout = ROLLOUT): Promise<TempHome> => {
  home = await makeTempHome(logins, baseUrl);
  const day = path.join(home.dir, codexHome, 'sessions', '2026', '09', '10');
  await mkdir(day, { recursive: true });
  await copyFile(path.join(FIXTURES, 'limits', 'codex-rollout', rollout), path.join(day, rollout));
  return home;
};

describe('codex limits from its own session files', () => {
  it('shows the newest windows Codex wrote, with their age, when there is no login', async () => {
    const { env } = await homeWithRollout();
    const outcomes = await firstValueFrom(fetchLimits(testCtx(env), ['codex'], agentLimits));
    expect(outcomes.codex).toMatchObject({
      kind: 'ok',
      reports: [
        {
          row: 'Codex',
          plan: 'Plus',
          windows: [
            { label: '5-hour', windowSeconds: 18_000, usedPercent: 12, resetsAt: 1_789_055_400_000 },
            { label: '7-day', windowSeconds: 604_800, usedPercent: 30, resetsAt: 1_789_400_000_000 },
          ],
        },
      ],
    });
    const note = outcomes.codex?.kind === 'ok' ? outcomes.codex.reports[0]?.note : '';
    expect(note).toContain("from Codex's session file, 3 min ago");
    expect(note).toContain(ROLLOUT);
  });

  it('reads the rollouts under CODEX_HOME', async () => {
    const { env, dir } = await homeWithRollout('codex-home');
    const outcomes = await firstValueFrom(fetchLimits(testCtx({ ...env, CODEX_HOME: path.join(dir, 'codex-home') }), ['codex'], agentLimits));
    expect(outcomes.codex?.kind).toBe('ok');
  });

  it('says which folder it looked in when there is neither a login nor a snapshot', async () => {
    home = await makeTempHome({}, 'http://127.0.0.1:9');
    const outcomes = await firstValueFrom(fetchLimits(testCtx(home.env, { now: () => REF_NOW }), ['codex'], agentLimits));
    expect(outcomes.codex).toMatchObject({ kind: 'skipped', reason: 'no-credential' });
    expect(outcomes.codex?.kind === 'skipped' && outcomes.codex.message).toContain(path.join(home.dir, '.codex', 'sessions'));
  });
});

describe('codex limits: the session file beside the live answer', () => {
  const plain = { color: false, now: REF_NOW, width: 100, tz: 'UTC' } as const;
  const loggedIn = async (route: Parameters<VendorServer['route']>[1]) => {
    server = await startVendorServer({ codex: route });
    const { env } = await homeWithRollout('.codex', { codex: 'codex/auth.json' }, server.url);
    return firstValueFrom(fetchLimits(testCtx(env), ['codex'], agentLimits));
  };

  it('shows both in the one Codex row, each window saying where it came from', async () => {
    const outcomes = await loggedIn({ fixture: 'codex/usage.json' });
    const [row] = limitsJson(outcomes, REF_NOW).rows;
    expect(row).toMatchObject({ row: 'Codex', status: 'ok', plan: 'Plus' });
    expect(row?.windows.map((w) => [w.label, w.used_percent, w.source])).toEqual([
      ['5-hour', 80, 'live'],
      ['7-day', 91, 'live'],
      ['5-hour', 12, 'session file'],
      ['7-day', 30, 'session file'],
    ]);
    expect(row?.windows[0]?.note).toContain('/backend-api/wham/usage');
    expect(row?.windows[2]?.note).toContain("from Codex's session file, 3 min ago");
    expect(exitCodeOf(outcomes)).toBe(0);
  });

  it('puts the snapshot on its own indented line of the table, and the detailed view says which is which', async () => {
    const outcomes = await loggedIn({ fixture: 'codex/usage.json' });
    const lines = renderTable(outcomes, plain).split('\n').filter((line) => line.startsWith('│'));
    expect(lines.map((line) => line.split('│').map((cell) => cell.trimEnd()).slice(1, 4))).toEqual([
      [' Agent', ' 5h', ' Week (or Global)'],
      [' Codex', ' 80.0% used / 80.0% exp', ' 91.0% used / 71.4% exp'],
      ['   session file, 3 min ago', ' 12.0% used / 63.3% exp', ' 30.0% used / 41.9% exp'],
    ]);
    const detailed = renderDetailed(outcomes, plain);
    expect(detailed.match(/Source: (live|session file, 3 min ago)/g)).toEqual(['Source: live', 'Source: live', 'Source: session file, 3 min ago', 'Source: session file, 3 min ago']);
    expect(detailed).toContain("Note: from Codex's session file, 3 min ago");
    expect(detailed).toContain('Note: read from /backend-api/wham/usage');
  });

  it.each([
    ['a rejected token', { status: 401, fixture: 'codex/error-401.json' }, 'E_UNAUTHORIZED', 'HTTP 401'],
    ['a drifted answer', { fixture: 'codex/drift-renamed.json' }, 'E_SCHEMA_DRIFT', 'shape changed'],
    ['a server failure', { status: 503, body: 'down' }, 'E_SERVER', 'HTTP 503'],
  ])('when the live call fails (%s) the snapshot still shows and the row says what failed', async (_name, route, code, says) => {
    const outcomes = await loggedIn(route);
    expect(outcomes.codex).toMatchObject({ kind: 'failed', code });
    const [row] = limitsJson(outcomes, REF_NOW).rows;
    expect(row).toMatchObject({ status: 'failed', error: expect.stringContaining(says) });
    expect(row?.windows.map((w) => [w.used_percent, w.source])).toEqual([
      [12, 'session file'],
      [30, 'session file'],
    ]);
    expect(renderTable(outcomes, plain)).toMatch(/│ Codex +│ 12\.0% used/);
    expect(exitCodeOf(outcomes)).toBe(1);
  });

  it('leaves out snapshot windows that have reset since: the live answer has the new window', async () => {
    server = await startVendorServer({ codex: { fixture: 'codex/usage.json' } });
    const { env } = await homeWithRollout('.codex', { codex: 'codex/auth.json' }, server.url);
    // Two hours later the snapshot's 5-hour window (reset 15:50) is still on, and at 16:00 it is gone.
    const at = (hours: number) => firstValueFrom(fetchLimits(testCtx(env, { now: () => REF_NOW + hours * 3_600_000 }), ['codex'], agentLimits));
    const sources = async (hours: number) => limitsJson(await at(hours), REF_NOW).rows[0]?.windows.map((w) => `${w.label} ${w.source ?? ''}`);
    expect(await sources(1)).toEqual(['5-hour live', '7-day live', '5-hour session file', '7-day session file']);
    expect(await sources(2)).toEqual(['5-hour live', '7-day live', '7-day session file']);
  });
});

describe("codex limits: the newer fields of Codex's snapshot", () => {
  const SPEND = 'rollout-2026-09-10T13-50-00-0199e0c1-5d6e-7f80-9a1b-2c3d4e5f6a7b.jsonl';

  it('reads the spend limit as a window, and says what it used and which limit Codex reported reached', async () => {
    const { env } = await homeWithRollout('.codex', {}, 'http://127.0.0.1:9', SPEND);
    const outcomes = await firstValueFrom(fetchLimits(testCtx(env), ['codex'], agentLimits));
    const [row] = limitsJson(outcomes, REF_NOW).rows;
    expect(row).toMatchObject({ status: 'ok', plan: 'Team' });
    expect(row?.windows.map((w) => [w.label, w.used_percent, w.resets_at])).toEqual([
      ['5-hour', 100, '2026-09-10T15:00:00.000Z'],
      ['7-day', 65, '2026-09-14T15:33:20.000Z'],
      ['spend limit', 76, '2026-09-13T11:46:40.000Z'],
    ]);
    expect(row?.windows[2]?.note).toContain('spend limit 38.00 of 50.00 used');
    expect(row?.windows[2]?.note).toContain('Codex reported workspace member usage limit reached');
  });

  it('a newer field in a shape it does not know costs that field only, never the windows', async () => {
    const { env, dir } = await homeWithRollout();
    const odd = {
      timestamp: '2026-09-10T13:59:00.000Z',
      type: 'event_msg',
      payload: { type: 'token_count', info: null, rate_limits: { limit_id: 'codex', primary: { used_percent: 14, window_minutes: 300, resets_at: 1_789_055_400 }, individual_limit: { limit: 50 }, spend_control_reached: 'no', plan_type: 'plus' } },
    };
    await appendFile(path.join(dir, '.codex', 'sessions', '2026', '09', '10', ROLLOUT), `${JSON.stringify(odd)}\n`);
    const outcomes = await firstValueFrom(fetchLimits(testCtx(env), ['codex'], agentLimits));
    expect(limitsJson(outcomes, REF_NOW).rows[0]?.windows.map((w) => [w.label, w.used_percent])).toEqual([['5-hour', 14]]);
  });
});
