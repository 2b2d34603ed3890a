/**
 * The dashboard's screenshots in docs/screenshots/ (each density, the detail panel, the limits
 * dialog and the panel view, dark and light), taken in headless Chromium from `agentwatch --gui
 * --demo` on a temp HOME. Run after `npm run build`:
 *
 *   node web/screenshots.mjs
 */
import { spawn } from 'node:child_process';
import { pbkdf2Sync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, '..', 'docs', 'screenshots');
const root = mkdtempSync(path.join(tmpdir(), 'agentwatch-shots-'));
const passphrase = 'screenshots passphrase';
const env = {
  HOME: path.join(root, 'home'),
  XDG_CONFIG_HOME: path.join(root, 'config'),
  XDG_CACHE_HOME: path.join(root, 'cache'),
  XDG_DATA_HOME: path.join(root, 'data'),
  PATH: process.env.PATH,
  TZ: 'UTC',
  AGENTWATCH_API_PASSPHRASE: passphrase,
};
mkdirSync(env.HOME, { recursive: true });
mkdirSync(out, { recursive: true });

const child = spawn(process.execPath, [path.join(here, '..', 'dist', 'cli.js'), '--gui', '--no-open', '--demo', '--host', '127.0.0.1:0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
child.stderr.on('data', (chunk) => (stderr += chunk));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--hide-scrollbars'] });
try {
  let base;
  for (let tries = 0; !(base = /dashboard at (http:\/\/[^\s/]+)/.exec(stderr)?.[1]); tries += 1) {
    if (tries > 300) throw new Error(`agentwatch did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const salt = JSON.parse(readFileSync(path.join(env.XDG_CONFIG_HOME, 'agentwatch', 'config.json'), 'utf8')).api_salt;
  const token = pbkdf2Sync(passphrase, salt, 600000, 32, 'sha256').toString('base64url');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const density = (card_density) => fetch(`${base}/api/config`, { method: 'PUT', headers, body: JSON.stringify({ card_density }) });

  for (const scheme of ['dark', 'light']) {
    const shot = async (name, { density: wanted = 'live', query = '', viewport = { width: 1280, height: 760 }, act } = {}) => {
      await density(wanted);
      const context = await browser.newContext({ viewport, colorScheme: scheme, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.goto(`${base}/${query}#token=${token}`);
      await page.locator('[data-session-id]').first().waitFor();
      // Live cards fetch their last message; let the grid settle.
      await page.waitForTimeout(1500);
      if (act) await act(page);
      await page.screenshot({ path: path.join(out, `${name}-${scheme}.png`) });
      await context.close();
    };
    await shot('dashboard-live');
    await shot('dashboard-rich', { density: 'rich' });
    await shot('dashboard-compact', { density: 'compact' });
    await shot('detail-panel', {
      act: async (page) => {
        await page.locator('[data-session-id] .name button').first().click();
        await page.waitForTimeout(800);
      },
    });
    await shot('limits-dialog', {
      act: async (page) => {
        await page.keyboard.press('l');
        await page.getByRole('dialog', { name: 'Limits' }).getByText('Claude').first().waitFor();
        await page.waitForTimeout(300);
      },
    });
    await shot('panel', { query: '?view=panel', viewport: { width: 380, height: 640 } });
    await shot('panel-limits', {
      query: '?view=panel',
      viewport: { width: 380, height: 640 },
      act: async (page) => {
        await page.keyboard.press('l');
        await page.getByRole('dialog', { name: 'Limits' }).getByText('Claude').first().waitFor();
      },
    });
  }
  await density('live');
  console.log(`screenshots written to ${path.relative(process.cwd(), out)}`);
} finally {
  await browser.close();
  child.kill('SIGTERM');
  rmSync(root, { recursive: true, force: true });
}
