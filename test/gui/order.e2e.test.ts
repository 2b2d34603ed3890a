import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchBrowser, makeHome, openDashboard, serve, until, type Home, type Served } from './harness.js';

declare const document: { querySelectorAll(selector: string): Iterable<{ getAttribute(name: string): string | null }> };

/**
 * The cards hold still: over 30 s of `--demo` updates (read every 2 s, as a person glances at the
 * page) a card moves only when its session changes group (waiting for you, working, idle). This is
 * the one test of the suite that lets real seconds pass: the demo runs in the spawned server.
 */

const READS = 16;
const EVERY_MS = 2_000;

type Group = 'waiting' | 'working' | 'idle';
const groupOf = (activity: string): Group => (activity === 'waiting' ? 'waiting' : activity === 'idle' ? 'idle' : 'working');

interface Read {
  readonly order: readonly string[];
  readonly groups: ReadonlyMap<string, Group>;
}

describe.skipIf(!CHROMIUM)('card order over 30 s of --demo', { timeout: 90_000 }, () => {
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

  it('moves a card only when its session changes group', async () => {
    // Tall enough for every demo card to be on the page.
    const { page, context, problems } = await openDashboard(browser, served, { viewport: { width: 1280, height: 2400 } });
    try {
      await until(() => page.locator('[data-session-id]').count()).toBeGreaterThanOrEqual(10);
      const read = async (): Promise<Read> => {
        const cards = await page.evaluate(() => [...document.querySelectorAll('[data-session-id]')].map((card) => [card.getAttribute('data-session-id') ?? '', card.getAttribute('data-activity') ?? '']));
        return { order: cards.map(([id]) => id ?? ''), groups: new Map(cards.map(([id, activity]) => [id ?? '', groupOf(activity ?? '')])) };
      };
      const reads: Read[] = [await read()];
      for (let i = 1; i < READS; i += 1) {
        await page.waitForTimeout(EVERY_MS);
        reads.push(await read());
      }
      let orderChanges = 0;
      let groupChanges = 0;
      const unexplained: string[] = [];
      for (let i = 1; i < reads.length; i += 1) {
        const before = reads[i - 1] as Read;
        const after = reads[i] as Read;
        if (before.order.join() !== after.order.join()) orderChanges += 1;
        const moved = new Set<string>();
        for (const [id, group] of after.groups) {
          const was = before.groups.get(id);
          if (was !== undefined && was !== group) moved.add(id);
        }
        groupChanges += moved.size;
        // Whatever did not change group keeps its relative order.
        const still = (order: readonly string[]): string => order.filter((id) => !moved.has(id) && before.groups.has(id) && after.groups.has(id)).join();
        if (still(before.order) !== still(after.order)) unexplained.push(`read ${i}: ${still(before.order)} -> ${still(after.order)}`);
      }
      console.info(`card order changes in 30 s of demo: ${orderChanges}; sessions that changed group: ${groupChanges}`);
      expect(unexplained).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
