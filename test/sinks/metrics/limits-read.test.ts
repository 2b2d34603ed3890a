import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchLimits } from '../../../src/limits/fetch-limits.js';
import { clearLimitsRead } from '../../../src/limits/last-read.js';
import { REF_NOW, testCtx } from '../../limits/helpers/limits-ctx.js';
import { makeTempHome } from '../../limits/helpers/temp-home.js';
import { FIXTURES, startVendorServer } from '../../limits/helpers/vendor-server.js';
import { idleMetrics, parseExposition, sample } from './exposition.js';
import { agentLimits } from '../../../src/sources/agents.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  clearLimitsRead();
});

describe('limits in /metrics', () => {
  it('an on-demand read (as the TUI and GET /api/limits do) is what the limits gauges show, with its time', async () => {
    const vendor = await startVendorServer({ claude: { fixture: 'claude/usage.json' } });
    cleanups.push(() => vendor.close());
    const home = await makeTempHome({ claude: 'claude/credentials.json' }, vendor.url);
    cleanups.push(() => home.remove());
    const metrics = idleMetrics({ processMetrics: false });
    cleanups.push(() => metrics.stop());

    const before = parseExposition(await metrics.render());
    expect([...before.keys()].some((key) => key.startsWith('agentwatch_limit_used_percent{'))).toBe(false);
    expect(vendor.requests).toHaveLength(0);

    await firstValueFrom(fetchLimits(testCtx(home.env), ['claude'], agentLimits));
    const values = parseExposition(await metrics.render());
    const used = [...values.entries()].filter(([key]) => key.startsWith('agentwatch_limit_used_percent{agent="claude"'));
    expect(used.length).toBeGreaterThan(0);
    expect(sample(values, 'agentwatch_limit_read_timestamp_seconds')).toBe(REF_NOW / 1000);
    // Scraping again reads nothing from the vendor: metrics never poll.
    await metrics.render();
    expect(vendor.requests).toHaveLength(1);
  });

  it("exports Codex's session-file snapshot beside the live windows, told apart by a source label", async () => {
    const vendor = await startVendorServer({ codex: { fixture: 'codex/usage.json' } });
    cleanups.push(() => vendor.close());
    const home = await makeTempHome({ codex: 'codex/auth.json' }, vendor.url);
    cleanups.push(() => home.remove());
    const rollout = 'rollout-2026-09-10T13-40-00-0199e0c1-2a3b-7c4d-8e5f-6a7b8c9d0e1f.jsonl';
    const day = path.join(home.dir, '.codex', 'sessions', '2026', '09', '10');
    await mkdir(day, { recursive: true });
    await copyFile(new URL(`codex-rollout/${rollout}`, FIXTURES), path.join(day, rollout));
    const metrics = idleMetrics({ processMetrics: false });
    cleanups.push(() => metrics.stop());

    await firstValueFrom(fetchLimits(testCtx(home.env), ['codex'], agentLimits));
    const values = parseExposition(await metrics.render());
    const codex = (period: string, source: string) => ({ agent: 'codex', row: 'Codex', window: period === '5h' ? '5-hour' : '7-day', period, source });
    expect(sample(values, 'agentwatch_limit_used_percent', codex('5h', 'live'))).toBe(80);
    expect(sample(values, 'agentwatch_limit_used_percent', codex('week', 'live'))).toBe(91);
    expect(sample(values, 'agentwatch_limit_used_percent', codex('5h', 'session_file'))).toBe(12);
    expect(sample(values, 'agentwatch_limit_used_percent', codex('week', 'session_file'))).toBe(30);
    expect(sample(values, 'agentwatch_limit_expected_percent', codex('week', 'session_file'))).toBeCloseTo(41.93, 2);
  });
});
