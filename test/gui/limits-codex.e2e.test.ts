import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../sinks/tui/vendor.js';
import { prompt, reply, text, writeClaudeSession, type ClaudeSession } from './fixture.js';
import { CHROMIUM, launchBrowser, makeHome, openDashboard, serve, until, type Home, type Served } from './harness.js';

/**
 * The limits dialog with Codex's own snapshot beside its live answer: a Codex login answered by a
 * local stand-in for the usage endpoint (AGENTWATCH_CODEX_API_URL), and a rollout whose last
 * `token_count` carries the windows Codex wrote three minutes ago.
 */

const SESSION: ClaudeSession = { id: '55555555-eeee-4000-8000-000000000005', cwd: '/home/dev/shop' };
const MIN = 60_000;

/** A usage answer whose windows reset relative to now: 80 % of 5 hours, 91 % of a week. */
const usage = (now: number): string =>
  JSON.stringify({
    plan_type: 'plus',
    rate_limit: {
      primary_window: { used_percent: 80, limit_window_seconds: 18_000, reset_at: Math.round((now + 60 * MIN) / 1000) },
      secondary_window: { used_percent: 91, limit_window_seconds: 604_800, reset_at: Math.round((now + 2 * 1440 * MIN) / 1000) },
    },
  });

/** A rollout whose newest snapshot was written three minutes ago: 12 % and 30 %. */
const writeRollout = async (home: string, now: number): Promise<void> => {
  const at = new Date(now - 3 * MIN);
  const day = path.join(home, '.codex', 'sessions', String(at.getUTCFullYear()), String(at.getUTCMonth() + 1).padStart(2, '0'), String(at.getUTCDate()).padStart(2, '0'));
  await mkdir(day, { recursive: true });
  const snapshot = {
    timestamp: at.toISOString(),
    type: 'event_msg',
    payload: {
      type: 'token_count',
      info: null,
      rate_limits: {
        limit_id: 'codex',
        primary: { used_percent: 12, window_minutes: 300, resets_at: Math.round((now + 100 * MIN) / 1000) },
        secondary: { used_percent: 30, window_minutes: 10_080, resets_at: Math.round((now + 3 * 1440 * MIN) / 1000) },
        plan_type: 'plus',
      },
    },
  };
  await writeFile(path.join(day, 'rollout-2026-12-01T10-00-00-0199e0c1-2a3b-7c4d-8e5f-6a7b8c9d0e1f.jsonl'), `${JSON.stringify(snapshot)}\n`);
};

describe.skipIf(!CHROMIUM)("the limits dialog with Codex's session file beside the live answer", () => {
  let home: Home;
  let served: Served;
  let browser: Browser;
  let vendor: Server;

  beforeAll(async () => {
    const now = Date.now();
    home = await makeHome();
    await writeClaudeSession(home.home, SESSION, [prompt(SESSION, 40_000, 'Add a cart page'), reply(SESSION, 20_000, 'msg_1', [text('Done.')])]);
    await mkdir(path.join(home.home, '.codex'), { recursive: true });
    await writeFile(path.join(home.home, '.codex', 'auth.json'), fixture('codex/auth.json'));
    await writeRollout(home.home, now);
    vendor = createServer((req, res) => {
      if (req.url === '/backend-api/wham/usage') res.writeHead(200, { 'content-type': 'application/json' }).end(usage(now));
      else res.writeHead(404).end('{"error":"not found"}');
    });
    await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
    const { port } = vendor.address() as AddressInfo;
    [served, browser] = await Promise.all([serve(home, { env: { AGENTWATCH_CODEX_API_URL: `http://127.0.0.1:${port}` } }), launchBrowser()]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    vendor?.closeAllConnections();
    await new Promise<void>((resolve) => (vendor ? vendor.close(() => resolve()) : resolve()));
    await home?.cleanup();
  });

  it('shows the snapshot under the live windows with its age, and says which is which in Detailed', async () => {
    const { page, context, problems } = await openDashboard(browser, served, { viewport: { width: 1280, height: 800 } });
    try {
      await page.locator(`[data-session-id="${SESSION.id}"]`).waitFor();
      await page.keyboard.press('l');
      const dialog = page.getByRole('dialog', { name: 'Limits' });
      await until(() => dialog.textContent()).toContain('Codex');
      const lines = () => dialog.locator('table.summary tr').evaluateAll((rows) => rows.map((row) => (row.textContent ?? '').replace(/\s+/g, ' ').trim()));
      await until(lines).toEqual([
        'Codex (Plus)',
        expect.stringMatching(/^5-hour 80%/),
        expect.stringMatching(/^7-day 91%/),
        expect.stringMatching(/^session file, \d+ min ago$/),
        expect.stringMatching(/^5-hour 12%/),
        expect.stringMatching(/^7-day 30%/),
      ]);
      expect(await dialog.textContent()).not.toContain('agentwatch limits:');

      await dialog.getByRole('tab', { name: 'Detailed' }).click();
      const panel = dialog.getByRole('tabpanel');
      await until(() => panel.locator('.window dd').allTextContents()).toEqual(expect.arrayContaining(['live', expect.stringMatching(/^session file, \d+ min ago$/)]));
      const notes = await panel.locator('.note').allTextContents();
      expect(notes).toEqual([expect.stringContaining('/backend-api/wham/usage'), expect.stringMatching(/^from Codex's session file, \d+ min ago/)]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
