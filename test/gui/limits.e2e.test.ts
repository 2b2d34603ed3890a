import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, startClaudeVendor, type Vendor } from '../sinks/tui/vendor.js';
import { prompt, reply, text, writeClaudeSession, type ClaudeSession } from './fixture.js';
import { CHROMIUM, launchBrowser, makeHome, openDashboard, serve, until, type Home, type Served } from './harness.js';

// The page's own globals, used inside evaluate callbacks (the tests' types have no DOM).
declare const getComputedStyle: (element: unknown) => { backgroundColor: string; userSelect: string };
declare const getSelection: () => { toString(): string; removeAllRanges(): void } | null;
declare const document: { body: unknown };
declare const innerWidth: number;

/**
 * The limits in the browser: the detached dashboard's floating limits dialog and the panel
 * view's limits page, against a local stand-in for the Claude usage endpoint
 * (AGENTWATCH_CLAUDE_API_URL) and the real server.
 */

const SESSION: ClaudeSession = { id: '44444444-dddd-4000-8000-000000000004', cwd: '/home/dev/shop' };

const box = async (locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> => {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not on screen');
  return found;
};

/**
 * Presses at `at` of `target` (its middle by default), moves by (dx, dy) in a few steps, calls
 * `meanwhile` before letting go, and gives back what it returned.
 */
const drag = async <T = void>(
  page: Page,
  target: Locator,
  dx: number,
  dy: number,
  at: { x: number; y: number } = { x: 0.5, y: 0.5 },
  meanwhile: () => Promise<T> = async () => undefined as T,
): Promise<T> => {
  const b = await box(target);
  const x = b.x + b.width * at.x;
  const y = b.y + b.height * at.y;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps: 5 });
  const seen = await meanwhile();
  await page.mouse.up();
  return seen;
};

describe.skipIf(!CHROMIUM)('limits in the dashboard and the panel view', () => {
  let home: Home;
  let served: Served;
  let browser: Browser;
  let vendor: Vendor;

  beforeAll(async () => {
    home = await makeHome();
    await writeClaudeSession(home.home, SESSION, [prompt(SESSION, 40_000, 'Add a cart page'), reply(SESSION, 20_000, 'msg_1', [text('Done.')])]);
    await mkdir(path.join(home.home, '.claude'), { recursive: true });
    await writeFile(path.join(home.home, '.claude', '.credentials.json'), fixture('claude/credentials.json'));
    vendor = await startClaudeVendor();
    [served, browser] = await Promise.all([serve(home, { env: { AGENTWATCH_CLAUDE_API_URL: vendor.url } }), launchBrowser()]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await vendor?.close();
    await home?.cleanup();
  });

  it('floats a non-modal dialog: read on open and refresh only, dragged, resized, kept inside, pinned, closed only by Close', async () => {
    const { page, context, problems } = await openDashboard(browser, served, { viewport: { width: 1280, height: 800 } });
    // Every GET /api/limits the page makes: the dialog never polls.
    const reads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/limits') reads.push(request.url());
    });
    // A fake clock: ten minutes can pass without waiting for them.
    await page.clock.install();
    try {
      await page.locator(`[data-session-id="${SESSION.id}"]`).waitFor();
      await page.keyboard.press('l');
      const dialog = page.getByRole('dialog', { name: 'Limits' });
      await dialog.waitFor();
      expect(await dialog.getAttribute('aria-modal')).toBeNull();
      await until(() => dialog.textContent()).toContain('Claude');
      expect(await dialog.getByRole('tab', { name: 'Summary' }).getAttribute('aria-selected')).toBe('true');
      expect(await dialog.textContent()).toMatch(/5-hour[\s\S]*\d+%/);
      // The plan as `limits --detailed` and the TUI say it: the row, then the plan in parentheses.
      expect(await dialog.locator('.row-head th').first().textContent()).toMatch(/^\s*Claude \(Max\)\s*$/);
      expect(reads).toHaveLength(1);
      await page.clock.runFor(10 * 60_000);
      expect(reads).toHaveLength(1);

      await dialog.getByRole('tab', { name: 'Detailed' }).click();
      await until(() => dialog.getByRole('tabpanel').textContent()).toMatch(/Elapsed[\s\S]*Resets[\s\S]*Pace/);
      expect(await dialog.locator('.block h3').first().textContent()).toBe('Claude (Max)');
      // The window's name and its length, apart: "5-hour · 5 h window", never "5-hour· 5 h".
      expect(await dialog.locator('.window h4').first().innerText()).toBe('5-hour · 5 h window');
      // The Used bar by used percent alone (green <= 50, blue <= 75, orange <= 90,
      // red above), whatever the pace; the Elapsed bar neutral.
      const bars = await dialog.locator('.window').evaluateAll((windows) =>
        windows.map((window) => {
          const used = window.querySelector('.bar.wide:not(.elapsed)');
          const elapsed = window.querySelector('.bar.elapsed .fill');
          const fill = (el: unknown): string => (el ? getComputedStyle(el).backgroundColor : '');
          return {
            percent: Number.parseFloat(used?.nextElementSibling?.textContent ?? 'NaN'),
            tone: [...(used?.classList ?? [])].find((name) => name.startsWith('tone-')),
            usedColor: fill(used?.querySelector('.fill')),
            elapsedColor: fill(elapsed),
          };
        }),
      );
      expect(bars.length).toBeGreaterThan(0);
      const toneOf = (percent: number): string => (percent <= 50 ? 'tone-green' : percent <= 75 ? 'tone-blue' : percent <= 90 ? 'tone-orange' : 'tone-red');
      for (const bar of bars) expect(bar.tone).toBe(toneOf(bar.percent));
      expect(new Set(bars.map((bar) => bar.elapsedColor)).size).toBe(1);
      for (const bar of bars) expect(bar.usedColor).not.toBe(bar.elapsedColor);

      // Refresh and r re-read.
      await dialog.getByRole('button', { name: 'Refresh' }).click();
      await until(() => reads.length).toBe(2);
      await page.locator('body').press('r');
      await until(() => reads.length).toBe(3);

      // Dragged by its title bar.
      const titlebar = dialog.locator('.titlebar');
      const start = await box(dialog);
      await drag(page, titlebar, -300, 120, { x: 0.1, y: 0.5 });
      const moved = await box(dialog);
      expect(Math.round(moved.x - start.x)).toBe(-300);
      expect(Math.round(moved.y - start.y)).toBe(120);
      // Resized by its corner.
      await drag(page, dialog.locator('[data-resize-grip]'), 90, 60);
      const resized = await box(dialog);
      expect(Math.round(resized.width - moved.width)).toBe(90);
      expect(Math.round(resized.height - moved.height)).toBe(60);

      // The window shrinks: the dialog stays inside it (moved and shrunk to fit).
      await page.setViewportSize({ width: 640, height: 420 });
      await until(async () => {
        const b = await box(dialog);
        return b.x >= 0 && b.y >= 0 && b.x + b.width <= 640 && b.y + b.height <= 420;
      }).toBe(true);
      await page.setViewportSize({ width: 1280, height: 800 });
      await until(async () => Math.round((await box(dialog)).x)).toBe(Math.round(resized.x));

      // Pinned: the position is frozen (a drag does nothing); resizing still works.
      await dialog.getByRole('button', { name: 'Pin' }).click();
      expect(await dialog.getByRole('button', { name: 'Pin' }).getAttribute('aria-pressed')).toBe('true');
      const pinned = await box(dialog);
      await drag(page, titlebar, 200, 150, { x: 0.1, y: 0.5 });
      const after = await box(dialog);
      expect([Math.round(after.x), Math.round(after.y)]).toEqual([Math.round(pinned.x), Math.round(pinned.y)]);
      // Only the position: the pinned dialog still resizes, from the same corner.
      await drag(page, dialog.locator('[data-resize-grip]'), -40, -30);
      const smaller = await box(dialog);
      expect([Math.round(smaller.x), Math.round(smaller.y)]).toEqual([Math.round(pinned.x), Math.round(pinned.y)]);
      expect([Math.round(pinned.width - smaller.width), Math.round(pinned.height - smaller.height)]).toEqual([40, 30]);

      // No dimming, nothing modal: a click on the dashboard behind it works.
      const card = page.locator(`[data-session-id="${SESSION.id}"] .name button`);
      await card.click();
      await page.getByRole('complementary', { name: 'Session detail' }).waitFor();
      expect(await dialog.isVisible()).toBe(true);

      // Esc closes the detail panel, never the dialog; nor does l again (no re-read either); only Close does.
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      await page.locator('body').press('l');
      expect(await dialog.isVisible()).toBe(true);
      expect(reads).toHaveLength(3);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await until(() => dialog.count()).toBe(0);
      expect(reads).toHaveLength(3);

      // The header control opens it too, reading again on entry.
      await page.getByRole('banner').getByRole('button', { name: 'limits' }).click();
      await dialog.waitFor();
      await until(() => reads.length).toBe(4);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await until(() => dialog.count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('selects no page text while the dialog is dragged or resized, pinned or not; text in its body still selects', async () => {
    const { page, context } = await openDashboard(browser, served, { viewport: { width: 1280, height: 800 } });
    try {
      await page.locator(`[data-session-id="${SESSION.id}"]`).waitFor();
      await page.keyboard.press('l');
      const dialog = page.getByRole('dialog', { name: 'Limits' });
      await until(() => dialog.textContent()).toContain('Claude');
      const selected = () => page.evaluate(() => getSelection()?.toString() ?? '');
      const pageSelect = () => page.evaluate(() => getComputedStyle(document.body).userSelect);
      /** Presses on `target` and moves over the cards: what is selected, and whether the page could be, on the way and after. */
      const across = async (target: Locator, dx: number, dy: number, at: { x: number; y: number }) => {
        await page.evaluate(() => getSelection()?.removeAllRanges());
        const during = await drag(page, target, dx, dy, at, async () => ({ selected: await selected(), userSelect: await pageSelect() }));
        return { during, after: { selected: await selected(), userSelect: await pageSelect() } };
      };
      const titlebar = dialog.locator('.titlebar');
      // Moved by its title bar, across the cards to the left and down.
      expect(await across(titlebar, -700, 250, { x: 0.1, y: 0.5 })).toEqual({ during: { selected: '', userSelect: 'none' }, after: { selected: '', userSelect: 'auto' } });
      // Resized by its grip, back over the page.
      expect(await across(dialog.locator('[data-resize-grip]'), 200, 150, { x: 0.5, y: 0.5 })).toEqual({ during: { selected: '', userSelect: 'none' }, after: { selected: '', userSelect: 'auto' } });
      // Pinned, the bar does not move the dialog, and a press-and-drag on it selects nothing either.
      await dialog.getByRole('button', { name: 'Pin' }).click();
      expect((await across(titlebar, 600, 200, { x: 0.1, y: 0.5 })).after.selected).toBe('');
      expect((await across(dialog.locator('h2'), -500, 250, { x: 0.5, y: 0.5 })).after.selected).toBe('');
      // The dialog's body is text: a drag across it selects it, as anywhere outside a drag.
      const content = dialog.getByRole('tabpanel');
      const inBody = await across(content, 260, 60, { x: 0.03, y: 0.1 });
      expect(inBody.after.selected).toMatch(/hour[\s\S]*%/);
      await dialog.getByRole('button', { name: 'Close' }).click();
    } finally {
      await context.close();
    }
  });

  it('panel view: the limits page fits a 380 px and a 360 px window; what does not fit in height scrolls', async () => {
    // As with --demo: the answer marked sample data, the widest the tabs' row gets.
    const { page, context } = await openDashboard(browser, served, { query: '?view=panel', viewport: { width: 380, height: 360 } });
    await page.route('**/api/limits', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...((await response.json()) as object), sample: true } });
    });
    try {
      await page.locator(`[data-session-id="${SESSION.id}"]`).waitFor();
      await page.keyboard.press('l');
      const limits = page.getByRole('dialog', { name: 'Limits' });
      await until(() => limits.textContent()).toContain('sample data');
      await until(() => limits.textContent()).toContain('read at');
      // Every piece of the page inside the window's width (what is taller scrolls in its tab panel).
      const cut = () =>
        limits.evaluate((root) =>
          [root, ...root.querySelectorAll('*')].flatMap((el) => {
            const r = el.getBoundingClientRect();
            return r.width > 0 && (r.left < -0.5 || r.right > innerWidth + 0.5) ? [`${el.className}: ${el.textContent?.trim().slice(0, 40)}`] : [];
          }),
        );
      for (const width of [380, 360]) {
        await page.setViewportSize({ width, height: 360 });
        for (const tab of ['Summary', 'Detailed']) {
          await limits.getByRole('tab', { name: tab }).click();
          await until(async () => ({ width, tab, cut: await cut() })).toEqual({ width, tab, cut: [] });
          // The last line of the tab is reached by scrolling the panel.
          const last = limits.getByRole('tabpanel').locator('tr, dd').last();
          await last.scrollIntoViewIfNeeded();
          const b = await box(last);
          expect(b.y + b.height).toBeLessThanOrEqual(360);
          expect(b.y).toBeGreaterThanOrEqual(0);
        }
      }
    } finally {
      await context.close();
    }
  });

  it('panel view: a compact list; limits open as a page closed with l or Esc unless pinned', async () => {
    const { page, context } = await openDashboard(browser, served, { query: '?view=panel', viewport: { width: 380, height: 640 } });
    try {
      const row = page.locator(`[data-session-id="${SESSION.id}"]`);
      await until(() => row.locator('.activity-text').textContent()).toMatch(/^waiting \d+[sm]$/);
      // Each row says which agent runs the session: two sessions of one folder differ by it.
      expect(await row.locator('.agent').first().textContent()).toBe('Claude');
      // The narrow view counts who waits in its title and favicon too (a tray-like window).
      await until(() => page.title()).toBe('(1) agentwatch');
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('favicon-1.svg');
      const limits = page.getByRole('dialog', { name: 'Limits' });
      await page.keyboard.press('l');
      await limits.waitFor();
      await until(() => limits.textContent()).toContain('Claude');
      expect(await limits.getByRole('tab', { name: 'Detailed' }).count()).toBe(1);
      expect(await row.count()).toBe(0);
      await page.keyboard.press('l');
      await until(() => limits.count()).toBe(0);
      await row.waitFor();
      await page.keyboard.press('l');
      await limits.waitFor();
      await page.keyboard.press('Escape');
      await until(() => limits.count()).toBe(0);
      await row.waitFor();
      // Pinned (the limits view holds a pin named Pin), l and Esc leave the
      // page where it is; its Close control still closes it, and unpins.
      await page.keyboard.press('l');
      await limits.waitFor();
      const pin = limits.getByRole('button', { name: 'Pin' });
      expect(await pin.getAttribute('aria-pressed')).toBe('false');
      await pin.click();
      expect(await pin.getAttribute('aria-pressed')).toBe('true');
      await page.keyboard.press('Escape');
      await page.keyboard.press('l');
      expect(await limits.count()).toBe(1);
      await limits.getByRole('button', { name: 'Close' }).click();
      await until(() => limits.count()).toBe(0);
      await page.keyboard.press('l');
      await limits.waitFor();
      expect(await limits.getByRole('button', { name: 'Pin' }).getAttribute('aria-pressed')).toBe('false');
      await page.keyboard.press('Escape');
      await until(() => limits.count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
