/**
 * Regenerates the dashboard screenshots under docs/gui/ from `agentwatch --gui --demo`:
 * each card density, the detail panel, the limits dialog and the panel view with its limits page,
 * in dark and light. Needs a build (`npm run build`) and Chromium at /usr/bin/chromium.
 *
 *   node scripts/gui-screenshots.mjs [--out docs/gui]
 *
 * Runs on a temp HOME: it never reads the user's sessions or config.
 */
/* global document -- the waitForFunction callbacks run in the browser */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.join(here, '..');
const outAt = process.argv.indexOf('--out');
const out = path.resolve(outAt === -1 ? path.join(repo, 'docs', 'gui') : process.argv[outAt + 1]);
const chromiumPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((file) => existsSync(file));
if (!chromiumPath) throw new Error('no Chromium at /usr/bin/chromium (apt-get install chromium)');
if (!existsSync(path.join(repo, 'dist', 'gui', 'index.html'))) throw new Error('dist/gui is missing: run npm run build');

const root = mkdtempSync(path.join(tmpdir(), 'agentwatch-shots-'));
const env = {
  HOME: path.join(root, 'home'),
  XDG_CONFIG_HOME: path.join(root, 'config'),
  XDG_CACHE_HOME: path.join(root, 'cache'),
  XDG_DATA_HOME: path.join(root, 'data'),
  XDG_STATE_HOME: path.join(root, 'state'),
  PATH: process.env.PATH,
  AGENTWATCH_API_PASSPHRASE: 'screenshot passphrase',
};
for (const dir of Object.values(env).filter((value) => value?.startsWith(root))) mkdirSync(dir, { recursive: true });
const child = spawn(process.execPath, [path.join(repo, 'dist', 'cli.js'), '--gui', '--no-open', '--demo', '--host', '127.0.0.1:0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
child.stderr.on('data', (chunk) => (stderr += chunk));

const waitFor = async (check, what) => {
  for (let tries = 0; tries < 300; tries += 1) {
    const value = check();
    if (value) return value;
    if (child.exitCode !== null) throw new Error(`agentwatch exited: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}: ${stderr}`);
};

const shots = [];
try {
  const base = await waitFor(() => /dashboard at (http:\/\/[^\s/]+)/.exec(stderr)?.[1], 'the dashboard');
  const { deriveToken } = await import(path.join(repo, 'dist', 'sinks', 'http', 'token.js'));
  const config = JSON.parse(readFileSync(path.join(env.XDG_CONFIG_HOME, 'agentwatch', 'config.json'), 'utf8'));
  const token = await deriveToken(env.AGENTWATCH_API_PASSPHRASE, config.api_salt);
  mkdirSync(out, { recursive: true });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    for (const scheme of ['dark', 'light']) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 760 }, colorScheme: scheme, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.goto(`${base}/#token=${token}`);
      await page.locator('[data-session-id]').first().waitFor();
      const shot = async (name) => {
        // Let the live stream settle (activity text, sparklines) before the picture.
        await page.waitForTimeout(600);
        const file = path.join(out, `${name}-${scheme}.png`);
        await page.screenshot({ path: file });
        shots.push(file);
      };
      for (const density of ['Compact', 'Rich', 'Live']) {
        await page.getByRole('button', { name: density, exact: true }).click();
        await shot(`density-${density.toLowerCase()}`);
      }
      await page.locator('[data-session-id] .name button').first().click();
      await page.getByRole('complementary', { name: 'Session detail' }).waitFor();
      await shot('detail');
      await page.keyboard.press('Escape');
      await page.keyboard.press('l');
      const dialog = page.getByRole('dialog', { name: 'Limits' });
      await dialog.waitFor();
      await page.waitForFunction(() => /%/.test(document.querySelector('[role="dialog"]')?.textContent ?? ''));
      await shot('limits');
      await context.close();

      const narrow = await browser.newContext({ viewport: { width: 400, height: 640 }, colorScheme: scheme });
      const panel = await narrow.newPage();
      await panel.goto(`${base}/?view=panel#token=${token}`);
      await panel.locator('[data-session-id]').first().waitFor();
      await panel.waitForTimeout(600);
      await panel.screenshot({ path: path.join(out, `panel-${scheme}.png`) });
      shots.push(path.join(out, `panel-${scheme}.png`));
      await panel.keyboard.press('l');
      await panel.getByRole('dialog', { name: 'Limits' }).waitFor();
      await panel.waitForFunction(() => /%/.test(document.querySelector('[role="dialog"]')?.textContent ?? ''));
      await panel.waitForTimeout(300);
      await panel.screenshot({ path: path.join(out, `panel-limits-${scheme}.png`) });
      shots.push(path.join(out, `panel-limits-${scheme}.png`));
      await narrow.close();
    }
  } finally {
    await browser.close();
  }
  for (const file of shots) console.log(path.relative(repo, file));
} finally {
  child.kill('SIGTERM');
  rmSync(root, { recursive: true, force: true });
}
