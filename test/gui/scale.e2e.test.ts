import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prompt, reply, text, type ClaudeSession } from './fixture.js';
import { CHROMIUM, launchBrowser, makeHome, openDashboard, serve, until, type Home, type Served } from './harness.js';

declare const document: {
  getElementsByTagName(name: string): { length: number };
  querySelector(selector: string): { getBoundingClientRect(): { top: number; bottom: number } } | null;
};
declare const innerHeight: number;

/**
 * The dashboard with thousands of listed sessions (real transcripts, the real server): only the
 * cards on screen and a margin are in the page, scrolling reaches the last card, and the keys,
 * the search box and the waiting-first order still work. `SCALE_SESSIONS` sets the count.
 */

const COUNT = Number(process.env.SCALE_SESSIONS) || 3_000;
const MINUTE = 60_000;
const idOf = (i: number): string => `${i.toString(16).padStart(8, '0')}-aaaa-4000-8000-000000000000`;
const sessionOf = (i: number): ClaudeSession => ({ id: idOf(i), cwd: `/home/dev/project-${i % 100}/${i === 1_234 ? 'needle-sprocket' : `app-${i}`}` });

const jsonl = (records: readonly object[]): string => records.map((r) => `${JSON.stringify(r)}\n`).join('');

describe.skipIf(!CHROMIUM)(`dashboard with ${COUNT} sessions`, { timeout: 120_000 }, () => {
  let home: Home;
  let served: Served;
  let browser: Browser;
  const waiting = sessionOf(COUNT - 1);

  beforeAll(async () => {
    home = await makeHome();
    const projects = path.join(home.home, '.claude', 'projects');
    const writes: Promise<void>[] = [];
    for (let i = 0; i < COUNT; i += 1) {
      const s = sessionOf(i);
      const dir = path.join(projects, s.cwd.replace(/[^A-Za-z0-9]/g, '-'));
      // Every session idle (answered 25 down to 5 minutes ago: the first one started first), but
      // the last one, answered just now: waiting for the user.
      const at = i === COUNT - 1 ? 20_000 : 25 * MINUTE - Math.floor((i * 20 * MINUTE) / COUNT);
      const records = [prompt(s, at + 10_000, `Task ${i}`), reply(s, at, `msg_${i}`, [text(`Done with task ${i}.`)])];
      writes.push(mkdir(dir, { recursive: true }).then(() => writeFile(path.join(dir, `${s.id}.jsonl`), jsonl(records))));
      if (writes.length >= 200) await Promise.all(writes.splice(0));
    }
    await Promise.all(writes);
    [served, browser] = await Promise.all([serve(home), launchBrowser()]);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await home?.cleanup();
  });

  it('keeps the page small: the cards on screen and a margin, whatever the count; scrolling reaches the last card', async () => {
    const { page, context, problems } = await openDashboard(browser, served);
    try {
      const grid = page.locator('[data-cards]');
      await expect.poll(() => grid.getAttribute('data-cards'), { timeout: 90_000, interval: 200 }).toBe(String(COUNT));
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      await cdp.send('HeapProfiler.collectGarbage');
      const { metrics } = await cdp.send('Performance.getMetrics');
      const metric = (name: string): number => metrics.find((m) => m.name === name)?.value ?? Number.NaN;
      const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
      const cards = await page.locator('[data-session-id]').count();
      console.info(`${COUNT} sessions: ${cards} cards and ${nodes} elements in the page, ${metric('Nodes')} DOM nodes, JS heap ${(metric('JSHeapUsedSize') / 2 ** 20).toFixed(1)} MiB used`);
      expect(cards).toBeLessThan(200);
      expect(nodes).toBeLessThan(5_000);
      // Waiting first.
      expect(await page.locator('[data-session-id]').first().getAttribute('data-session-id')).toBe(waiting.id);
      // The bottom of the scroller shows the last card (the oldest started of the idle ones).
      const main = page.getByRole('main', { name: 'Sessions' });
      await main.evaluate((element) => (element.scrollTop = element.scrollHeight));
      const last = page.locator(`[data-session-id="${idOf(0)}"]`);
      await until(() => last.count()).toBe(1);
      await until(() => page.evaluate((id) => {
        const box = document.querySelector(`[data-session-id="${id}"]`)?.getBoundingClientRect();
        return box !== undefined && box.bottom <= innerHeight && box.top >= 0;
      }, idOf(0))).toBe(true);
      expect(await page.locator('[data-session-id]').count()).toBeLessThan(200);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('moves the selection with j past the cards built, and finds a session by its path', async () => {
    const { page, context } = await openDashboard(browser, served);
    try {
      await expect.poll(() => page.locator('[data-cards]').getAttribute('data-cards'), { timeout: 90_000, interval: 200 }).toBe(String(COUNT));
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      for (let i = 0; i < 60; i += 1) await page.keyboard.press('j');
      const selected = page.locator('[data-session-id].selected');
      await until(() => selected.count()).toBe(1);
      // The 60th card: built and on screen.
      const id = await selected.getAttribute('data-session-id');
      expect(await page.locator('[data-session-id]').evaluateAll((all, wanted) => all.findIndex((card) => card.getAttribute('data-session-id') === wanted), id)).toBeGreaterThanOrEqual(0);
      await until(() => page.evaluate(() => {
        const box = document.querySelector('[data-session-id].selected')?.getBoundingClientRect();
        return box !== undefined && box.top >= 0 && box.bottom <= innerHeight;
      })).toBe(true);
      await page.keyboard.press('/');
      await page.keyboard.type('needle-sprocket');
      await until(() => page.locator('[data-session-id]').evaluateAll((all) => all.map((card) => card.getAttribute('data-session-id')))).toEqual([idOf(1_234)]);
    } finally {
      await context.close();
    }
  });
});
