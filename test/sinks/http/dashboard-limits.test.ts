import { afterEach, describe, expect, it } from 'vitest';
import { renderJson } from '../../../src/limits/render-json.js';
import { sampleOutcomes } from '../../../src/limits/sample.js';
import type { Outcomes } from '../../../src/limits/types.js';
import { SHARE_MS } from '../../../src/sinks/http/routes/limits.js';
import { makeDashboard, type DashboardHarness } from './dashboard-fixture.js';

let harness: DashboardHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('GET /api/limits', () => {
  it('needs the token', async () => {
    harness = await makeDashboard();
    expect((await harness.app.inject({ url: '/api/limits' })).statusCode).toBe(401);
    expect(harness.reads).toHaveLength(0);
  });

  it('answers exactly the document of `limits --json` for the same outcomes', async () => {
    const outcomes = sampleOutcomes(1_000_000, ['claude', 'codex', 'grok', 'kimi', 'cursor']);
    harness = await makeDashboard({ read: async () => outcomes });
    const res = await harness.app.inject({ url: '/api/limits', headers: harness.auth() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(JSON.parse(renderJson(outcomes, harness.clock)));
  });

  it('reads once for concurrent requests and within 5 s, again after; never on its own', async () => {
    harness = await makeDashboard();
    const h = harness;
    const [a, b] = await Promise.all([h.app.inject({ url: '/api/limits', headers: h.auth() }), h.app.inject({ url: '/api/limits', headers: h.auth() })]);
    expect(a.body).toBe(b.body);
    expect(h.reads).toHaveLength(1);
    h.clock += SHARE_MS - 1;
    await h.app.inject({ url: '/api/limits', headers: h.auth() });
    expect(h.reads).toHaveLength(1);
    h.clock += 1;
    await h.app.inject({ url: '/api/limits', headers: h.auth() });
    expect(h.reads).toHaveLength(2);
    // Only requests read: no timer was left behind (the route holds no interval).
    expect(h.reads.map((r) => r.agents)).toEqual([
      ['claude', 'codex', 'grok', 'kimi', 'cursor'],
      ['claude', 'codex', 'grok', 'kimi', 'cursor'],
    ]);
  });

  it('?agent= reads one agent; a skip asked by name is an error row, as `limits --agent X --json` prints it', async () => {
    harness = await makeDashboard();
    const res = await harness.app.inject({ url: '/api/limits?agent=codex', headers: harness.auth() });
    expect(res.statusCode).toBe(200);
    expect(harness.reads.map((r) => r.agents)).toEqual([['codex']]);
    expect(res.json().rows).toEqual([{ row: 'Codex', agent: 'codex', status: 'failed', error: 'no codex login', windows: [] }]);
    const all = await harness.app.inject({ url: '/api/limits?agent=all', headers: harness.auth() });
    expect(all.json().rows.map((r: { status: string }) => r.status)).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'skipped', 'skipped']);
  });

  it('refuses an unknown agent (400) and one switched off in the config (409)', async () => {
    harness = await makeDashboard();
    const bad = await harness.app.inject({ url: '/api/limits?agent=amp', headers: harness.auth() });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/agent must be one of claude, codex, grok, kimi, cursor, all/);
    await harness.app.inject({ method: 'PUT', url: '/api/config', headers: harness.auth(), payload: { agents: { grok: false } } });
    const off = await harness.app.inject({ url: '/api/limits?agent=grok', headers: harness.auth() });
    expect(off.statusCode).toBe(409);
    expect(off.json().error).toBe('grok is switched off in the config (agents.grok: false)');
    await harness.app.inject({ url: '/api/limits', headers: harness.auth() });
    expect(harness.reads.at(-1)?.agents).toEqual(['claude', 'codex', 'kimi', 'cursor']);
  });

  it('--demo: generated sample windows marked as sample', async () => {
    harness = await makeDashboard({ sample: true, read: async (agents, now): Promise<Outcomes> => sampleOutcomes(now, agents) });
    const res = await harness.app.inject({ url: '/api/limits', headers: harness.auth() });
    expect(res.json().sample).toBe(true);
    expect(res.json().rows.every((r: { status: string }) => r.status === 'ok')).toBe(true);
  });

  it('a failed read is not shared with the next request', async () => {
    let calls = 0;
    harness = await makeDashboard({
      read: async () => {
        calls += 1;
        if (calls === 1) throw new Error('boom');
        return {};
      },
    });
    expect((await harness.app.inject({ url: '/api/limits', headers: harness.auth() })).statusCode).toBe(500);
    expect((await harness.app.inject({ url: '/api/limits', headers: harness.auth() })).statusCode).toBe(200);
    expect(calls).toBe(2);
  });
});
