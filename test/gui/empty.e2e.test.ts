import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prompt, reply, text, writeClaudeSession, type ClaudeSession } from './fixture.js';
import { CHROMIUM, launchBrowser, makeHome, openDashboard, serve, until, type Home, type Served } from './harness.js';

/**
 * An empty dashboard leads somewhere: with only a session older than the window it
 * counts it and names what reaches it, and lists where the sources looked (GET /api/scope); the
 * panel view says the same, its list of places included.
 */

const OLD: ClaudeSession = { id: '77777777-aaaa-4000-8000-000000000007', cwd: '/home/dev/archive' };

describe.skipIf(!CHROMIUM)('empty dashboard (spawned agentwatch --gui)', () => {
  let home: Home;
  let served: Served;
  let browser: Browser;

  beforeAll(async () => {
    home = await makeHome();
    // Two hours quiet: outside the default 30-minute window.
    await writeClaudeSession(home.home, OLD, [prompt(OLD, 7_300_000, 'Archive the logs'), reply(OLD, 7_200_000, 'msg_o1', [text('Archived.')])]);
    [served, browser] = await Promise.all([serve(home), launchBrowser()]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await home?.cleanup();
  });

  it('GET /api/scope counts the session outside the window and lists where the sources looked', async () => {
    const scope = until(async () => {
      const answer = await fetch(`${served.base}/api/scope`, { headers: { authorization: `Bearer ${served.token}` } });
      return (await answer.json()) as { ready: boolean; listed: number; outside_window: number; window_minutes: number; looked_in: { agent: string; path: string }[] };
    });
    await scope.toMatchObject({ ready: true, listed: 0, outside_window: 1, window_minutes: 30 });
    const answer = (await (await fetch(`${served.base}/api/scope`, { headers: { authorization: `Bearer ${served.token}` } })).json()) as { looked_in: { agent: string; path: string }[] };
    expect(answer.looked_in).toContainEqual({ agent: 'claude', path: `${home.home}/.claude/projects` });
    expect((await fetch(`${served.base}/api/scope`)).status).toBe(401);
  });

  it('says how many sessions are older, what reaches them, and where it looked; the panel view too', async () => {
    const { page, context, problems } = await openDashboard(browser, served);
    try {
      const older = page.locator('[data-scope="older"]');
      await until(() => older.textContent()).toContain('1 older session is outside the window');
      expect(await older.textContent()).toContain('agentwatch sessions --all');
      await page.getByText(/Where agentwatch looked/).click();
      expect(await page.locator('.looked').textContent()).toContain(`${home.home}/.claude/projects`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
    const panel = await openDashboard(browser, served, { query: '?view=panel', viewport: { width: 380, height: 640 } });
    try {
      await until(() => panel.page.locator('[data-scope="older"]').textContent()).toContain('1 older session is outside the window');
      // Where it looked, as the full dashboard lists it.
      const list = panel.page.getByRole('list', { name: 'Sessions' });
      await list.getByText(/Where agentwatch looked \(1\)/).click();
      await until(() => list.locator('.looked li').allTextContents()).toEqual([`claude ${home.home}/.claude/projects`]);
      // The path fits the narrow window: its end stays in view (an ellipsis takes its start when too long).
      const path = await list.locator('.looked code').boundingBox();
      expect(path && path.x >= 0 && path.x + path.width <= 380).toBe(true);
      expect(panel.problems).toEqual([]);
    } finally {
      await panel.context.close();
    }
  });
});
