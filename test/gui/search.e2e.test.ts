import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prompt, reply, text, writeClaudeSession, type ClaudeSession } from './fixture.js';
import { CHROMIUM, launchBrowser, makeHome, openDashboard, serve, until, type Home, type Served } from './harness.js';

declare const document: { activeElement: { tagName: string; getAttribute(name: string): string | null } | null };

/**
 * The dashboard's search box against the real server: the cards it shows agree with what "In
 * messages" found (a session in the window found by what was said is a card; one outside the window
 * is listed and marked), and Esc hands the keys back to the cards.
 */

const INSIDE: ClaudeSession = { id: '44444444-dddd-4000-8000-000000000004', cwd: '/home/dev/shop' };
const OUTSIDE: ClaudeSession = { id: '55555555-eeee-4000-8000-000000000005', cwd: '/home/dev/ledger' };
const OTHER: ClaudeSession = { id: '66666666-ffff-4000-8000-000000000006', cwd: '/home/dev/infra' };
const HOUR = 3_600_000;

describe.skipIf(!CHROMIUM)('dashboard search in Chromium', () => {
  let home: Home;
  let served: Served;
  let browser: Browser;

  beforeAll(async () => {
    home = await makeHome();
    await writeClaudeSession(home.home, INSIDE, [prompt(INSIDE, 60_000, 'Add the checkout page'), reply(INSIDE, 50_000, 'msg_in', [text('The checkout page is in.')])]);
    // Three hours ago: outside the 30-minute window, still in the index.
    await writeClaudeSession(home.home, OUTSIDE, [prompt(OUTSIDE, 3 * HOUR, 'Reconcile the checkout totals'), reply(OUTSIDE, 3 * HOUR - 5_000, 'msg_out', [text('The ledger balances now.')])]);
    await writeClaudeSession(home.home, OTHER, [prompt(OTHER, 90_000, 'Plan the drift fix'), reply(OTHER, 80_000, 'msg_other', [text('Plan ready.')])]);
    [served, browser] = await Promise.all([serve(home), launchBrowser()]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await home?.cleanup();
  });

  it('shows the sessions it found in messages: the listed one as a card, the one outside the window marked; the counts agree', async () => {
    const { page, context, problems } = await openDashboard(browser, served);
    try {
      const cards = page.locator('[data-session-id]');
      await until(() => cards.count()).toBe(2);
      await page.keyboard.press('/');
      await page.keyboard.type('checkout');
      const results = page.getByRole('region', { name: 'In messages' });
      await until(() => results.locator('[data-result-id]').count()).toBe(2);
      expect(await results.locator(`[data-result-id="${INSIDE.id}"]`).getAttribute('data-listed')).toBe('true');
      expect(await results.locator(`[data-result-id="${OUTSIDE.id}"]`).getAttribute('data-listed')).toBe('false');
      expect(await results.locator(`[data-result-id="${OUTSIDE.id}"]`).textContent()).toContain('outside the window');
      expect(await results.locator('[data-found-count]').textContent()).toBe('2 sessions, 1 outside the window');
      // Only a message holds the word: the session in the window is a card all the same.
      await until(() => cards.evaluateAll((found) => found.map((card) => card.getAttribute('data-session-id')))).toEqual([INSIDE.id]);
      const main = page.getByRole('main', { name: 'Sessions' });
      expect(await main.textContent()).not.toContain('No session matches');
      expect(await page.getByRole('contentinfo', { name: 'Status' }).textContent()).toContain('1 shown');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('never says "no session matches" under its own hits: a hit outside the window is pointed at', async () => {
    const { page, context } = await openDashboard(browser, served);
    try {
      await until(() => page.locator('[data-session-id]').count()).toBe(2);
      await page.keyboard.press('/');
      await page.keyboard.type('reconcile');
      const results = page.getByRole('region', { name: 'In messages' });
      await until(() => results.locator('[data-result-id]').count()).toBe(1);
      await until(() => page.locator('[data-session-id]').count()).toBe(0);
      const main = page.getByRole('main', { name: 'Sessions' });
      await until(() => main.textContent()).toContain('The session found in messages is outside the window or hidden by the filter');
      expect(await main.textContent()).not.toContain('No session matches');
    } finally {
      await context.close();
    }
  });

  it('Esc leaves the search box for the cards: the next ? opens the shortcuts instead of typing', async () => {
    const { page, context } = await openDashboard(browser, served);
    try {
      await until(() => page.locator('[data-session-id]').count()).toBe(2);
      await page.keyboard.press('/');
      await page.keyboard.type('shop');
      await until(() => page.locator('[data-session-id]').count()).toBe(1);
      await page.keyboard.press('Escape');
      await until(() => page.locator('[data-session-id]').count()).toBe(2);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Sessions');
      await page.keyboard.press('?');
      await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
      expect(await page.getByRole('searchbox').inputValue()).toBe('');
      // j moves the selection: the keys are the dashboard's again.
      await page.keyboard.press('Escape');
      await page.keyboard.press('j');
      await until(() => page.locator('[data-session-id].selected').count()).toBe(1);
    } finally {
      await context.close();
    }
  });
});
