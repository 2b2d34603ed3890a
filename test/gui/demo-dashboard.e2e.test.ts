import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchBrowser, makeHome, openDashboard, serve, until, type Home, type Served } from './harness.js';

interface Box {
  readonly offsetHeight: number;
  readonly style: { readonly gridAutoRows: string };
}
declare const document: { querySelector(selector: string): Box | null; querySelectorAll(selector: string): Iterable<Box> };

/**
 * The dashboard on --demo: the limits dialog opens as tall as what it shows (within the window),
 * so with every sample window its last row is in view without scrolling or resizing; the
 * footer's words are spaced as written; every card fits the row the grid gives it.
 */
describe.skipIf(!CHROMIUM)('the dashboard on --demo', () => {
  let home: Home;
  let served: Served;
  let browser: Browser;

  beforeAll(async () => {
    home = await makeHome();
    [served, browser] = await Promise.all([serve(home, { args: ['--demo'] }), launchBrowser()]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await home?.cleanup();
  });

  it('shows its last row at the default size in a 1280x760 window', async () => {
    const { page, context } = await openDashboard(browser, served, { viewport: { width: 1280, height: 760 } });
    try {
      await page.locator('[data-session-id]').first().waitFor();
      await page.keyboard.press('l');
      const dialog = page.getByRole('dialog', { name: 'Limits' });
      await until(() => dialog.textContent()).toContain('Cursor API');
      const content = dialog.locator('.content');
      await until(() => content.evaluate((el) => el.scrollHeight - el.clientHeight)).toBeLessThanOrEqual(0);
      // And the dialog stays inside the window.
      const box = await dialog.boundingBox();
      expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(760);
    } finally {
      await context.close();
    }
  });

  it('the footer says the cost in the window and that it includes estimates, as separate words', async () => {
    const { page, context } = await openDashboard(browser, served, { viewport: { width: 1280, height: 760 } });
    try {
      const footer = page.getByRole('contentinfo', { name: 'Status' });
      await until(() => footer.innerText()).toMatch(/in 30m incl\. estimates/);
    } finally {
      await context.close();
    }
  });

  it('gives every row the height of its tallest card, so cards never overlap', async () => {
    const { page, context } = await openDashboard(browser, served, { viewport: { width: 1280, height: 760 } });
    try {
      await until(() => page.locator('[data-session-id]').count()).toBeGreaterThan(3);
      // The demo's live cards are taller than the grid's first guess of a row.
      await until(() =>
        page.evaluate(() => {
          const row = Number.parseFloat(document.querySelector('[role="list"]')?.style.gridAutoRows ?? '0');
          return [...document.querySelectorAll('[data-session-id]')].filter((card) => card.offsetHeight > row + 0.5).length;
        }),
      ).toBe(0);
    } finally {
      await context.close();
    }
  });
});
