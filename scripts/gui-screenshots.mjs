/**
 * Regenerates the dashboard screenshots under docs/gui/ from `agentwatch --gui --demo`:
 * each card density, the detail panel, the limits dialog and the panel view with its limits page,
 * in dark and light. Needs a build (`npm run build`) and Chromium at /usr/bin/chromium.
 *
 *   node scripts/gui-screenshots.mjs [--out docs/gui]
 *   node scripts/gui-screenshots.mjs --fixtures [--out docs/gui]
 *
 * `--fixtures` shows sessions as agents write them instead of the demo's: the agents' folders
 * under fixtures/<agent>/ are copied into the temp HOME with their times moved to the last hour,
 * `agentwatch --api` serves them, and the cards, the detail panel and the panel view are taken
 * (fixtures-*.png).
 *
 * Runs on a temp HOME: it never reads the user's sessions or config.
 */
/* global document -- the waitForFunction callbacks run in the browser */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.join(here, '..');
const fixtures = process.argv.includes('--fixtures');
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

const MINUTE = 60_000;
const ISO = /\b(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)?/g;
// Epoch times of the fixtures' era (2025-2027) in milliseconds, or in seconds with a fraction.
const EPOCH_MS = /(?<![\w.])(17\d{11})(?![\w.])/g;
const EPOCH_S = /(?<![\w.])(17\d{8})(\.\d+)?(?![\w.])/g;

const filesUnder = (dir) => readdirSync(dir, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
const timesIn = (text) => [
  ...[...text.matchAll(ISO)].map((m) => Date.parse(`${m[1]}${m[2] ?? ''}${m[3] ?? 'Z'}`)),
  ...[...text.matchAll(EPOCH_MS)].map((m) => Number(m[1])),
  ...[...text.matchAll(EPOCH_S)].map((m) => Number(m[1]) * 1000),
].filter(Number.isFinite);

/** `text` with every time moved by `delta` ms, each written as it was (fraction, zone, unit). */
const moveTimes = (text, delta) =>
  text
    .replace(ISO, (_, whole, fraction = '', zone) => {
      const moved = new Date(Date.parse(`${whole}${fraction}${zone ?? 'Z'}`) + delta).toISOString();
      const digits = fraction.length - 1;
      const frac = digits > 0 ? `.${moved.slice(20, 23).padEnd(digits, '0')}` : '';
      return `${moved.slice(0, 19)}${frac}${zone === undefined ? '' : 'Z'}`;
    })
    .replace(EPOCH_MS, (_, ms) => String(Number(ms) + delta))
    .replace(EPOCH_S, (_, sec, fraction = '') => `${Number(sec) + Math.round(delta / 1000)}${fraction}`);

/**
 * The agents' folders of fixtures/ (those laid out as under a HOME: `.claude`, `.codex`, ...)
 * copied into `home`, each agent's times moved so that its newest record is a few minutes old
 * (one agent after the other), and each file's modification time set to its newest record.
 */
const fixtureHome = (home) => {
  const agents = readdirSync(path.join(repo, 'fixtures')).sort();
  let order = 0;
  for (const agent of agents) {
    const from = path.join(repo, 'fixtures', agent);
    const dots = readdirSync(from).filter((name) => name.startsWith('.') && statSync(path.join(from, name)).isDirectory());
    if (dots.length === 0) continue;
    for (const dot of dots) cpSync(path.join(from, dot), path.join(home, dot), { recursive: true });
    const files = dots.flatMap((dot) => filesUnder(path.join(from, dot)).map((file) => path.join(home, path.relative(from, file))));
    const texts = files.filter((file) => /\.(jsonl?|md|yaml)$/.test(file));
    const newest = Math.max(...texts.map((file) => Math.max(0, ...timesIn(readFileSync(file, 'utf8')))));
    if (newest <= 0) continue;
    const delta = Date.now() - (2 + 3 * order) * MINUTE - newest;
    order += 1;
    for (const file of texts) {
      const text = moveTimes(readFileSync(file, 'utf8'), delta);
      writeFileSync(file, text);
      const last = Math.max(0, ...timesIn(text));
      if (last > 0) utimesSync(file, last / 1000, last / 1000);
    }
  }
};

if (fixtures) {
  fixtureHome(env.HOME);
  // XDG_DATA_HOME is set, so `~/.local/share` (Amp's threads) is read from there.
  const share = path.join(env.HOME, '.local', 'share');
  if (existsSync(share)) cpSync(share, env.XDG_DATA_HOME, { recursive: true });
  // A day's window: the fixtures' sessions span hours, as a working day does.
  mkdirSync(path.join(env.XDG_CONFIG_HOME, 'agentwatch'), { recursive: true });
  writeFileSync(path.join(env.XDG_CONFIG_HOME, 'agentwatch', 'config.json'), `${JSON.stringify({ window_minutes: 1440 }, null, 2)}\n`);
}
const mode = fixtures ? ['--api'] : ['--gui', '--no-open', '--demo'];
const child = spawn(process.execPath, [path.join(repo, 'dist', 'cli.js'), ...mode, '--host', '127.0.0.1:0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
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

/** The cards (rich), a detail panel and the panel view of the fixtures' sessions. */
const fixtureShots = async (browser, base, token, scheme, shots) => {
  const take = async (page, name) => {
    await page.waitForTimeout(600);
    const file = path.join(out, `fixtures-${name}-${scheme}.png`);
    await page.screenshot({ path: file });
    shots.push(file);
  };
  const context = await browser.newContext({ viewport: { width: 1280, height: 760 }, colorScheme: scheme, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(`${base}/#token=${token}`);
  await page.locator('[data-session-id]').first().waitFor();
  await page.getByRole('button', { name: 'Rich', exact: true }).click();
  await take(page, 'cards');
  await page.locator('[data-session-id] .name button').first().click();
  await page.getByRole('complementary', { name: 'Session detail' }).waitFor();
  await take(page, 'detail');
  await context.close();
  const narrow = await browser.newContext({ viewport: { width: 400, height: 640 }, colorScheme: scheme });
  const panel = await narrow.newPage();
  await panel.goto(`${base}/?view=panel#token=${token}`);
  await panel.locator('[data-session-id]').first().waitFor();
  await take(panel, 'panel');
  await narrow.close();
};

const shots = [];
try {
  const base = await waitFor(() => /(?:dashboard at|API listening on) (http:\/\/[^\s/]+)/.exec(stderr)?.[1], 'the dashboard');
  const { deriveToken } = await import(path.join(repo, 'dist', 'sinks', 'http', 'token.js'));
  const config = JSON.parse(readFileSync(path.join(env.XDG_CONFIG_HOME, 'agentwatch', 'config.json'), 'utf8'));
  const token = await deriveToken(env.AGENTWATCH_API_PASSPHRASE, config.api_salt);
  mkdirSync(out, { recursive: true });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
  try {
    if (fixtures) {
      for (const scheme of ['dark', 'light']) await fixtureShots(browser, base, token, scheme, shots);
    }
    for (const scheme of fixtures ? [] : ['dark', 'light']) {
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
