import type { Browser, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendClaudeRecords, prompt, reply, text, toolUse, writeClaudeSession, type ClaudeSession } from './fixture.js';
import { CHROMIUM, eventually, launchBrowser, makeHome, openDashboard, PASSPHRASE, readJson, serve, until, type Home, type Served } from './harness.js';

// Browser globals of the page.evaluate / init-script callbacks below: they run in Chromium, not in
// Node, so the test program (lib ES2023, no DOM) declares just what they touch.
declare const sessionStorage: { getItem(key: string): string | null };
declare const document: {
  body: unknown;
  documentElement: { scrollWidth: number };
  hasFocus: () => boolean;
  elementFromPoint(x: number, y: number): unknown;
  querySelector(selector: string): { getBoundingClientRect(): { left: number; right: number } } | null;
};
declare const window: object;
declare const navigator: { clipboard: { readText(): Promise<string> } };
declare const getComputedStyle: (element: unknown) => { backgroundColor: string; userSelect: string; textOverflow: string };
declare const innerWidth: number;
declare const innerHeight: number;
declare const getSelection: () => { toString(): string } | null;

/**
 * The dashboard in headless Chromium against the real server (`agentwatch --gui --no-open` on a
 * fixture HOME): cards, densities, live updates, rename, detail panel, keys and sign-in.
 */

const WAITING: ClaudeSession = { id: '11111111-aaaa-4000-8000-000000000001', cwd: '/home/dev/shop', branch: 'feat/cart' };
const IDLE: ClaudeSession = { id: '22222222-bbbb-4000-8000-000000000002', cwd: '/home/dev/parser' };
const LIVE: ClaudeSession = { id: '33333333-cccc-4000-8000-000000000003', cwd: '/home/dev/infra' };

describe.skipIf(!CHROMIUM)('dashboard in Chromium (spawned agentwatch --gui)', () => {
  let home: Home;
  let served: Served;
  let browser: Browser;

  beforeAll(async () => {
    home = await makeHome();
    // Answered 20 s ago: waiting for the user (for two minutes). Ten minutes quiet: idle.
    await writeClaudeSession(home.home, WAITING, [prompt(WAITING, 40_000, 'Add a cart page'), reply(WAITING, 20_000, 'msg_w1', [text('The cart page is in; want a checkout too?')])]);
    await writeClaudeSession(home.home, IDLE, [prompt(IDLE, 700_000, 'Why do leap years break?'), reply(IDLE, 600_000, 'msg_i1', [text('February had 28 days hard-coded.')])]);
    await writeClaudeSession(home.home, LIVE, [prompt(LIVE, 500_000, 'Plan the terraform drift fix'), reply(LIVE, 480_000, 'msg_l1', [text('Plan ready.')])]);
    [served, browser] = await Promise.all([serve(home), launchBrowser()]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await home?.cleanup();
  });

  it('renders one card per session with data-session-id and its activity as text; the title and favicon count who waits', async () => {
    const { page, context, problems } = await openDashboard(browser, served);
    try {
      const cards = page.locator('[data-session-id]');
      await until(() => cards.count()).toBe(3);
      expect(new Set(await cards.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-session-id'))))).toEqual(new Set([WAITING.id, IDLE.id, LIVE.id]));
      const waiting = page.locator(`[data-session-id="${WAITING.id}"]`);
      // A waiting session says for how long (its answer was 20 s before the start).
      await until(() => waiting.locator('.activity-text').textContent()).toMatch(/^waiting \d+s$/);
      expect(await waiting.getAttribute('data-activity')).toBe('waiting');
      expect(await page.locator(`[data-session-id="${IDLE.id}"] .activity-text`).textContent()).toBe('idle');
      // Newest first, with the project, branch and model chips.
      expect(await cards.first().getAttribute('data-session-id')).toBe(WAITING.id);
      expect(await waiting.textContent()).toContain('shop');
      expect(await waiting.textContent()).toContain('feat/cart');
      expect(await waiting.textContent()).toContain('claude-sonnet-4-5');
      // A chip too long for its card is cut with an ellipsis, not mid-letter.
      expect(await waiting.locator('.chip-text').evaluateAll((nodes) => nodes.map((n) => getComputedStyle(n).textOverflow))).toEqual(['ellipsis', 'ellipsis']);
      await until(() => page.title()).toBe('(1) agentwatch');
      expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('favicon-1.svg');
      // The token left the address bar (and history) once read.
      expect(page.url()).not.toContain('token');
      // The status bar: counts, the waiting count and the cost of the listed sessions in the window.
      const status = await page.locator('footer[aria-label="Status"]').textContent();
      expect(status).toMatch(/3\s*sessions/);
      expect(status).toMatch(/1\s*waiting/);
      expect(status).toMatch(/\$\d+\.\d\d\s*in 30m/);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('switches densities and keeps the choice in the config file (card_density)', async () => {
    const { page, context } = await openDashboard(browser, served);
    try {
      const card = page.locator(`[data-session-id="${WAITING.id}"]`);
      // Live (the default): the last message and a sparkline.
      await until(() => card.getAttribute('class')).toContain('live');
      await until(() => card.locator('.last').textContent()).toContain('want a checkout too?');
      await card.locator('svg[role="img"]').waitFor();
      await page.getByRole('button', { name: 'Compact', exact: true }).click();
      await until(() => card.getAttribute('class')).toContain('compact');
      expect(await card.locator('.last').count()).toBe(0);
      await eventually(() => readJson(home.configFile), (config) => config.card_density === 'compact', 'card_density saved');
      // A new page starts in the saved density.
      await page.reload();
      await until(() => page.locator(`[data-session-id="${WAITING.id}"]`).getAttribute('class')).toContain('compact');
      expect(await page.getByRole('button', { name: 'Compact', exact: true }).getAttribute('aria-pressed')).toBe('true');
      await page.getByRole('button', { name: 'Rich', exact: true }).click();
      await eventually(() => readJson(home.configFile), (config) => config.card_density === 'rich', 'card_density saved');
      expect(await page.locator(`[data-session-id="${WAITING.id}"] svg[role="img"]`).count()).toBe(0);
      await page.getByRole('button', { name: 'Live', exact: true }).click();
      await eventually(() => readJson(home.configFile), (config) => config.card_density === 'live', 'card_density saved');
    } finally {
      await context.close();
    }
  });

  it('calls an untitled session by its latest prompt on its card, in every density, and in the detail panel, as the TUI does; its folder shows once', async () => {
    const { page, context } = await openDashboard(browser, served);
    try {
      const card = page.locator(`[data-session-id="${WAITING.id}"]`);
      await until(() => card.locator('.name').textContent()).toBe('Add a cart page');
      expect(await card.locator('.project').textContent()).toBe('shop');
      // The folder once (the name was `shop` above `shop`).
      expect(((await card.textContent()) ?? '').split('shop').length - 1).toBe(1);
      // Compact cards name it by its latest prompt too (the summary's display_name).
      await page.getByRole('button', { name: 'Compact', exact: true }).click();
      await eventually(() => readJson(home.configFile), (config) => config.card_density === 'compact', 'card_density saved');
      await page.reload();
      await until(() => page.locator(`[data-session-id="${WAITING.id}"]`).getAttribute('class')).toContain('compact');
      await until(() => page.locator(`[data-session-id="${WAITING.id}"] .name`).textContent()).toBe('Add a cart page');
      await page.locator(`[data-session-id="${WAITING.id}"] .name button`).click();
      const panel = page.getByRole('complementary', { name: 'Session detail' });
      await until(() => panel.locator('h2').textContent()).toBe('Add a cart page');
    } finally {
      await context.close();
      // Back to the default density for the tests after this one, whatever happened here.
      const put = await fetch(`${served.base}/api/config`, { method: 'PUT', headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ card_density: 'live' }) });
      expect(put.status).toBe(200);
    }
  });

  it('updates a card live when its transcript grows, leaving the other cards in place', async () => {
    const requests: URL[] = [];
    // Every request the page makes from the start: the update must arrive over the patch stream.
    const { page, context } = await openDashboard(browser, served, {
      beforeLoad: (p) => p.on('request', (request) => requests.push(new URL(request.url()))),
    });
    try {
      const live = page.locator(`[data-session-id="${LIVE.id}"]`);
      await until(() => live.locator('.activity-text').textContent()).toBe('idle');
      const before = requests.length;
      // The same DOM node must survive the update: keyed updates, no re-render of the grid.
      const other = await page.locator(`[data-session-id="${IDLE.id}"]`).elementHandle();
      await appendClaudeRecords(home.home, LIVE, [
        prompt(LIVE, 2_000, 'Apply it'),
        reply(LIVE, 0, 'msg_l2', [toolUse('toolu_w1', 'Write', { file_path: '/home/dev/infra/main.tf', content: 'x' })]),
      ]);
      await until(() => live.locator('.activity-text').textContent()).toBe('writing');
      // It moved to the front of the working group, behind only who waits for you (the needs-you
      // order); its message count and last message followed.
      const ahead = async (): Promise<string[]> => {
        const cards = await page.locator('[data-session-id]').evaluateAll((all) => all.map((card) => [card.getAttribute('data-session-id'), card.getAttribute('data-activity')]));
        const at = cards.findIndex(([id]) => id === LIVE.id);
        return at === -1 ? ['not listed'] : cards.slice(0, at).map(([, activity]) => activity ?? '');
      };
      await until(() => ahead().then((activities) => activities.every((activity) => activity === 'waiting'))).toBe(true);
      expect(await live.textContent()).toContain('4 msg');
      await until(() => live.locator('.last').textContent()).toContain('Apply it');
      expect(await other?.evaluate((node) => node.isConnected)).toBe(true);
      // One event stream, in the patch format, and no listing re-read for the update.
      expect(requests.filter((url) => url.pathname === '/api/events').map((url) => url.searchParams.get('format'))).toEqual(['patch']);
      expect(requests.slice(before).filter((url) => url.pathname === '/api/sessions')).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('renames inline in the detail panel; the name lands in session-names.json and an empty name resets it', async () => {
    const { page, context } = await openDashboard(browser, served);
    try {
      await page.locator(`[data-session-id="${IDLE.id}"] .name button`).click();
      const panel = page.getByRole('complementary', { name: 'Session detail' });
      await panel.getByRole('button', { name: 'Rename' }).click();
      const field = panel.getByRole('textbox', { name: 'Session name' });
      await field.fill('Leap year fix');
      await field.press('Enter');
      await until(() => page.locator(`[data-session-id="${IDLE.id}"] .name`).textContent()).toBe('Leap year fix');
      await eventually(() => readJson(home.namesFile), (names) => names[IDLE.id] === 'Leap year fix', 'name saved');
      await panel.getByRole('button', { name: 'Rename' }).click();
      await field.fill('');
      await field.press('Enter');
      await eventually(() => readJson(home.namesFile), (names) => !(IDLE.id in names), 'name reset');
      // Back to what it went by before: no title, so its latest prompt.
      await until(() => page.locator(`[data-session-id="${IDLE.id}"] .name`).textContent()).toBe('Why do leap years break?');
    } finally {
      await context.close();
    }
  });

  it('shows every field of the session detail; the panel width is dragged and saved as detail_width; copy resume command and path', async () => {
    const { page, context } = await openDashboard(browser, served);
    try {
      await page.locator(`[data-session-id="${WAITING.id}"] .name button`).click();
      const panel = page.getByRole('complementary', { name: 'Session detail' });
      await until(() => panel.textContent()).toContain(`claude --resume ${WAITING.id}`);
      const shown = await panel.textContent();
      for (const label of ['Session', 'Project', 'Branch', 'Model', 'Cost', 'Version', 'Worktree', 'Input tokens', 'Output tokens', 'Cache read', 'Recent messages', 'Recent tools']) {
        expect(shown).toContain(label);
      }
      expect(shown).toContain('2.0.31');
      expect(shown).toContain('The cart page is in; want a checkout too?');
      const before = (await panel.boundingBox())?.width ?? 0;
      expect(Math.round(before)).toBe(400);
      const handle = panel.getByRole('separator', { name: 'Panel width' });
      // The panel slides in: drag only once the handle stands still (a loaded machine animates slowly).
      let box = await handle.boundingBox();
      for (let tries = 0; tries < 100; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 30));
        const again = await handle.boundingBox();
        if (box && again && Math.abs(again.x - box.x) < 0.5) break;
        box = again;
      }
      if (!box) throw new Error('no resize handle');
      await page.mouse.move(box.x + box.width / 2, box.y + 200);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 - 120, box.y + 200, { steps: 4 });
      // Across the cards, and nothing on the page is selected on the way.
      expect(await page.evaluate(() => getComputedStyle(document.body).userSelect)).toBe('none');
      expect(await page.evaluate(() => getSelection()?.toString())).toBe('');
      await page.mouse.up();
      expect(await page.evaluate(() => getComputedStyle(document.body).userSelect)).not.toBe('none');
      await until(async () => Math.round((await panel.boundingBox())?.width ?? 0)).toBe(520);
      await eventually(() => readJson(home.configFile), (config) => config.detail_width === 520, 'detail_width saved');
      // Copy resume command and Copy path put exactly those on the clipboard.
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: served.base });
      await panel.getByRole('button', { name: 'Copy resume command' }).click();
      await until(() => page.evaluate(() => navigator.clipboard.readText())).toBe(`claude --resume ${WAITING.id}`);
      await panel.getByRole('button', { name: 'Copy path' }).click();
      await until(() => page.evaluate(() => navigator.clipboard.readText())).toBe(WAITING.cwd);
      await page.keyboard.press('Escape');
      await until(() => panel.count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('answers the keys docs/dashboard.md lists', async () => {
    const { page, context } = await openDashboard(browser, served);
    try {
      const cards = page.locator('[data-session-id]');
      await until(() => cards.count()).toBe(3);
      // / searches names and paths; Esc clears.
      await page.keyboard.press('/');
      await page.keyboard.type('parser');
      await until(() => cards.count()).toBe(1);
      await page.keyboard.press('Escape');
      await until(() => cards.count()).toBe(3);
      await page.keyboard.press('Escape');
      // f: the next activity filter ("active": nobody is working here).
      await page.keyboard.press('f');
      expect(await page.getByRole('combobox', { name: 'Activity filter' }).inputValue()).toBe('active');
      await page.keyboard.press('f');
      expect(await page.getByRole('combobox', { name: 'Activity filter' }).inputValue()).toBe('waiting');
      await until(() => cards.count()).toBe(1);
      await page.getByRole('combobox', { name: 'Activity filter' }).selectOption('');
      await page.locator('body').click({ position: { x: 5, y: 300 } });
      // + and -: the window, saved in the config and applied by the server (stats follow).
      await page.keyboard.press('+');
      await eventually(() => readJson(home.configFile), (config) => config.window_minutes === 40, 'window widened');
      await until(() => page.locator('.window-label').textContent()).toBe('40m');
      await page.keyboard.press('-');
      await eventually(() => readJson(home.configFile), (config) => config.window_minutes === 30, 'window narrowed');
      // j/k move, Enter opens the detail, Esc closes it.
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      await page.keyboard.press('k');
      const first = await cards.first().getAttribute('data-session-id');
      expect(await cards.first().getAttribute('class')).toContain('selected');
      await page.keyboard.press('Enter');
      await until(() => page.locator('[data-detail-id]').getAttribute('data-detail-id')).toBe(first);
      await page.keyboard.press('Escape');
      await until(() => page.locator('[data-detail-id]').count()).toBe(0);
      // ? lists the shortcuts; Esc closes the list.
      await page.keyboard.press('?');
      const overlay = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await overlay.waitFor();
      expect(await overlay.textContent()).toContain('Widen / narrow the time window');
      await page.keyboard.press('Escape');
      await until(() => overlay.count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('steps the window from the last value asked: quick presses are saved in order and the last one wins; a refused save falls back with a toast', async () => {
    const { page, context } = await openDashboard(browser, served);
    // The PUTs of the config are held until the presses are done, then answered newest first:
    // saves that could overtake one another would land out of order.
    const sent: unknown[] = [];
    const held: Route[] = [];
    let holding = true;
    await page.route('**/api/config', async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      sent.push((route.request().postDataJSON() as { window_minutes?: unknown }).window_minutes);
      if (holding) held.push(route);
      else await route.continue();
    });
    try {
      const label = page.locator('.window-label');
      await until(() => page.locator('[data-session-id]').count()).toBe(3);
      await until(() => label.textContent()).toBe('30m');
      for (let press = 0; press < 12; press += 1) await page.keyboard.press('+');
      // Each press steps from the value asked before it, shown at once: 30m + 12 x 10m.
      await until(() => label.textContent()).toBe('2h 30m');
      holding = false;
      for (const route of held.reverse()) await route.continue();
      await eventually(() => readJson(home.configFile), (config) => config.window_minutes === 150, 'the last window asked saved');
      // One save in flight at a time: the first press's, then the latest value asked.
      expect(sent).toEqual([40, 150]);
      // The server applied it: the stream's stats (the status bar) follow, the label stays.
      await until(() => page.locator('footer[aria-label="Status"]').textContent()).toContain('in 2h 30m');
      expect(await label.textContent()).toBe('2h 30m');

      // A refused save: the error toast, and the window the server holds.
      await page.unroute('**/api/config');
      await page.route('**/api/config', (route) =>
        route.request().method() === 'PUT'
          ? route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: 'the config file is read-only' }) })
          : route.continue(),
      );
      await page.keyboard.press('+');
      await until(() => page.getByRole('status').textContent()).toContain('Could not change the window: the config file is read-only');
      await until(() => label.textContent()).toBe('2h 30m');
      expect((await readJson(home.configFile)).window_minutes).toBe(150);
      // Stepping goes on from the server's window.
      await page.unroute('**/api/config');
      await page.keyboard.press('-');
      await eventually(() => readJson(home.configFile), (config) => config.window_minutes === 140, 'window narrowed from the saved one');
    } finally {
      await context.close();
      const back = await fetch(`${served.base}/api/config`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ window_minutes: 30 }),
      });
      expect(back.status).toBe(200);
    }
  });

  it('keeps every header control visible and clickable from 1400 px down to 360 px wide (the header wraps, nothing is cut off)', async () => {
    const { page, context } = await openDashboard(browser, served);
    try {
      await until(() => page.locator('[data-session-id]').count()).toBe(3);
      // Every control of the header: inside the window, and what a click at its middle reaches.
      const hidden = () =>
        page.locator('header.header').evaluate((header) =>
          [...header.querySelectorAll('button, select, input')].flatMap((control) => {
            const r = control.getBoundingClientRect();
            const name: string = control.getAttribute('aria-label') ?? control.textContent?.trim() ?? control.tagName;
            if (r.width < 8 || r.height < 8 || r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) return [`${name} outside the window`];
            const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return control === hit || control.contains(hit) ? [] : [`${name} is covered or cut off`];
          }),
        );
      const count = await page.locator('header.header').locator('button, select, input').count();
      expect(count).toBeGreaterThanOrEqual(10);
      for (const width of [1400, 900, 760, 700, 380, 360]) {
        await page.setViewportSize({ width, height: 640 });
        await until(async () => ({ width, hidden: await hidden() })).toEqual({ width, hidden: [] });
      }
      // At 360 px the header takes three rows; the limits dialog opens below them, not over them.
      await page.keyboard.press('l');
      const dialog = page.getByRole('dialog', { name: 'Limits' });
      await dialog.waitFor();
      const header = await page.locator('header.header').boundingBox();
      const opened = await dialog.boundingBox();
      expect(header && opened && opened.y >= header.y + header.height).toBe(true);
      await dialog.getByRole('button', { name: 'Close' }).click();
      // Clickable where the audit found them cut off (760 px and 700 px wide).
      await page.setViewportSize({ width: 700, height: 640 });
      await page.getByRole('button', { name: 'Rich', exact: true }).click();
      await until(() => page.locator(`[data-session-id="${WAITING.id}"]`).getAttribute('class')).toContain('rich');
      await page.getByRole('button', { name: 'Live', exact: true }).click();
      await until(() => page.locator(`[data-session-id="${WAITING.id}"]`).getAttribute('class')).toContain('live');
      await eventually(() => readJson(home.configFile), (config) => config.card_density === 'live', 'card_density saved');
    } finally {
      await context.close();
    }
  });

  it('keeps every part of the status bar inside the window down to 360 px wide (it wraps, "live" is never cut off)', async () => {
    const { page, context } = await openDashboard(browser, served);
    try {
      await until(() => page.locator('[data-session-id]').count()).toBe(3);
      const cut = () =>
        page.locator('footer.status').evaluate((status) =>
          [...status.children].flatMap((part) => {
            const r = part.getBoundingClientRect();
            if (r.width === 0 || part.classList.contains('spacer')) return [];
            return r.left < 0 || r.right > Math.min(innerWidth, status.getBoundingClientRect().right) + 0.5 ? [part.textContent?.trim() ?? ''] : [];
          }),
        );
      for (const width of [1400, 700, 380, 360]) {
        await page.setViewportSize({ width, height: 640 });
        await until(async () => ({ width, cut: await cut() })).toEqual({ width, cut: [] });
      }
      await expect(page.locator('footer.status [data-state]').textContent()).resolves.toContain('live');
    } finally {
      await context.close();
    }
  });

  it('opens the detail panel inside the window at every width; below 640 px it covers the cards, and closing it shows them again', async () => {
    const { page, context } = await openDashboard(browser, served);
    try {
      await until(() => page.locator('[data-session-id]').count()).toBe(3);
      await page.locator(`[data-session-id="${WAITING.id}"]`).click();
      const panel = page.getByRole('complementary', { name: 'Session detail' });
      await panel.waitFor();
      // The page never scrolls sideways, and the panel and its close button are inside the window.
      const outside = () =>
        page.evaluate(() => {
          const problems: string[] = [];
          if (document.documentElement.scrollWidth > innerWidth) problems.push(`page ${document.documentElement.scrollWidth} px wide`);
          const aside = document.querySelector('aside.detail')?.getBoundingClientRect();
          if (!aside || aside.left < 0 || aside.right > innerWidth + 0.5) problems.push('panel outside the window');
          const close = document.querySelector('[aria-label="Close the detail panel"]')?.getBoundingClientRect();
          if (!close || close.left < 0 || close.right > innerWidth + 0.5) problems.push('close button outside the window');
          const header = document.querySelector('header.header')?.getBoundingClientRect();
          if (!header || header.right > innerWidth + 0.5) problems.push('header wider than the window');
          return problems;
        });
      for (const width of [1400, 900, 700, 600, 380, 360]) {
        await page.setViewportSize({ width, height: 700 });
        await until(async () => ({ width, outside: await outside() })).toEqual({ width, outside: [] });
      }
      // At 360 px the panel takes the whole width under the header, over the cards.
      const box = await panel.boundingBox();
      expect(box && box.x <= 1 && box.width >= 359).toBe(true);
      await panel.getByRole('button', { name: 'Close the detail panel' }).click();
      await until(() => panel.count()).toBe(0);
      await page.locator(`[data-session-id="${WAITING.id}"]`).click({ trial: true });
    } finally {
      await context.close();
    }
  });

  it('searches what was said (GET /api/search, "In messages") beside the name and path filter', async () => {
    const { page, context } = await openDashboard(browser, served);
    try {
      const cards = page.locator('[data-session-id]');
      await until(() => cards.count()).toBe(3);
      await page.keyboard.press('/');
      await page.keyboard.type('checkout');
      // No name or path holds the word; a message of the waiting session does: its card stays.
      await until(() => page.locator('[data-session-id]').evaluateAll((found) => found.map((card) => card.getAttribute('data-session-id')))).toEqual([WAITING.id]);
      const results = page.getByRole('region', { name: 'In messages' });
      const hit = results.locator('[data-result-id]').first();
      await until(() => hit.getAttribute('data-result-id')).toBe(WAITING.id);
      expect(await results.locator('mark').first().textContent()).toBe('checkout');
      await hit.click();
      await until(() => page.locator('[data-detail-id]').getAttribute('data-detail-id')).toBe(WAITING.id);
    } finally {
      await context.close();
    }
  });

  it('follows the event stream again with backoff after it is refused (401, then 429)', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      const answers = [401, 429];
      let streams = 0;
      await page.route('**/api/events**', async (route) => {
        streams += 1;
        const status = answers.shift();
        if (status === undefined) return route.continue();
        return route.fulfill({ status, headers: { 'content-type': 'application/json', 'retry-after': '1' }, body: '{"error":"refused"}' });
      });
      await page.goto(`${served.base}/#token=${served.token}`);
      // The refusals end in a live listing (a 401 on the stream alone, with the token good, signs nobody out).
      await until(() => page.locator('[data-session-id]').count()).toBe(3);
      await until(() => page.locator('footer [data-state]').getAttribute('data-state')).toBe('live');
      expect(streams).toBe(3);
    } finally {
      await context.close();
    }
  });

  it('follows the event stream again after it ends and after the server cannot be reached', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      const stats = { total_sessions: 0, active_sessions: 0, window_minutes: 30, ready: true, diagnostics: 0 };
      let streams = 0;
      await page.route('**/api/events**', async (route) => {
        streams += 1;
        // First an empty snapshot on a stream that then ends, next a refused connection, then the real server.
        if (streams === 1) return route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: `event: snapshot\ndata: ${JSON.stringify({ sessions: [], stats })}\n\n` });
        if (streams === 2) return route.abort('connectionrefused');
        return route.continue();
      });
      await page.goto(`${served.base}/#token=${served.token}`);
      // Two reconnections, then the real stream's snapshot fills the grid and the stream is live.
      await until(() => streams).toBe(3);
      await until(() => page.locator('[data-session-id]').count()).toBe(3);
      await until(() => page.locator('footer [data-state]').getAttribute('data-state')).toBe('live');
      expect(streams).toBe(3);
    } finally {
      await context.close();
    }
  });

  it('without a token asks for the passphrase, derives the token in the browser and keeps it for the tab', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${served.base}/`);
      const field = page.getByLabel('Passphrase');
      await field.fill('not the passphrase');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await until(() => page.getByRole('alert').textContent()).toContain('does not match');
      await field.fill(`  ${PASSPHRASE} `);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await until(() => page.locator('[data-session-id]').count()).toBe(3);
      expect(await page.evaluate(() => sessionStorage.getItem('agentwatch.token'))).toBe(served.token);
      // A reload in the same tab stays signed in.
      await page.reload();
      await until(() => page.locator('[data-session-id]').count()).toBe(3);
    } finally {
      await context.close();
    }
  });

  it('follows the system theme: light and dark palettes', async () => {
    const background = async (scheme: 'dark' | 'light'): Promise<string> => {
      const { page, context } = await openDashboard(browser, served, { colorScheme: scheme });
      try {
        await page.locator('[data-session-id]').first().waitFor();
        return await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      } finally {
        await context.close();
      }
    };
    expect(await background('dark')).toBe('rgb(12, 15, 20)');
    expect(await background('light')).toBe('rgb(243, 244, 247)');
  });

  // Last: it adds a session to the HOME.
  it('opted in, announces in the browser a session that waits longer than notify_after_sec while nobody looks at the page', async () => {
    const put = (body: object) =>
      fetch(`${served.base}/api/config`, { method: 'PUT', headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await put({ notify_after_sec: 600 })).status).toBe(200);
    // A session answered 15 s ago: waiting (past the 10 s grace) from now on.
    const asking: ClaudeSession = { id: '66666666-ffff-4000-8000-000000000006', cwd: '/home/dev/blog' };
    await writeClaudeSession(home.home, asking, [prompt(asking, 30_000, 'Draft the post'), reply(asking, 15_000, 'msg_a1', [text('Drafted; shall I publish?')])]);
    const context = await browser.newContext();
    // A recorder in place of the browser's notifications, and a page nobody is looking at.
    await context.addInitScript(() => {
      const shown: { title: string; body: string | undefined }[] = [];
      Object.assign(window, { shown });
      class Recorder {
        static permission = 'granted';
        static requestPermission = async (): Promise<string> => 'granted';
        onclick: (() => void) | null = null;
        constructor(title: string, options?: { body?: string }) {
          shown.push({ title, body: options?.body });
        }
        close(): void {}
      }
      Object.assign(window, { Notification: Recorder });
      document.hasFocus = () => false;
    });
    const page = await context.newPage();
    try {
      await page.clock.install();
      await page.goto(`${served.base}/#token=${served.token}`);
      await until(() => page.locator(`[data-session-id="${asking.id}"] .activity-text`).textContent()).toMatch(/^waiting \d+[sm]$/);
      await page.getByRole('button', { name: 'Settings' }).click();
      await page.getByLabel('Also notify in this browser').check();
      await page.keyboard.press('Escape');
      const shown = () => page.evaluate(() => (window as unknown as { shown: { title: string; body: string }[] }).shown);
      await page.clock.runFor(5_000);
      expect(await shown()).toEqual([]);
      // Ten minutes later (the page's clock), still waiting: announced, once.
      await page.clock.runFor(600_000);
      const blog = async () => (await shown()).filter((n) => n.title === 'blog is waiting for you');
      await until(blog).toEqual([{ title: 'blog is waiting for you', body: asking.cwd }]);
      const count = (await shown()).length;
      await page.clock.runFor(60_000);
      expect(await shown()).toHaveLength(count);
    } finally {
      await context.close();
      expect((await put({ notify_after_sec: 30 })).status).toBe(200);
    }
  });
});
