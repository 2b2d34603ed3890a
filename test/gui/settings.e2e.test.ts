import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prompt, reply, text, writeClaudeSession, type ClaudeSession } from './fixture.js';
import { CHROMIUM, eventually, launchBrowser, makeHome, openDashboard, readJson, serve, until, type Home, type Served } from './harness.js';

/**
 * Settings and actions in the browser against the real server: every field saves to the config
 * file through PUT /api/config, a refused value shows the server's message at its field, the
 * passphrase is rotated without ever being shown, and Resume runs the session's command in the
 * terminal only for a same-origin page (a page of another origin is refused).
 */

const SESSION: ClaudeSession = { id: '55555555-eeee-4000-8000-000000000005', cwd: '' };
const OLD_PASSPHRASE = 'the passphrase of the file';
const HOOK_SECRET = 'hook secret that the page never shows';
/** Webhooks of the config file; the receiver's URL is filled in once its port is known. */
const webhooks = (receiver: string): unknown[] => [
  { name: 'team-chat', url: `${receiver}/hook`, secret: HOOK_SECRET, events: ['waiting'], agents: ['claude'] },
  { name: 'paused', url: 'http://127.0.0.1:9/never', enabled: false },
];

/** A fake terminal that appends one line per start (its argv) to a log: starts can be counted. */
const fakeTerminal = async (home: Home): Promise<string> => {
  const log = path.join(home.records, 'terminal.log');
  const file = path.join(home.bin, 'xdg-terminal-exec');
  await writeFile(file, `#!/bin/sh\nprintf '%s ' "$@" >> '${log}'\necho >> '${log}'\n`);
  await chmod(file, 0o755);
  return log;
};

describe.skipIf(!CHROMIUM)('settings and actions in Chromium (spawned agentwatch --gui)', () => {
  let home: Home;
  let served: Served;
  let browser: Browser;
  let terminalLog: string;
  let session: ClaudeSession;
  let receiver: Server;

  beforeAll(async () => {
    // A local receiver for the configured webhook: it accepts whatever is delivered.
    receiver = createServer((_request, response) => response.writeHead(204).end());
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    home = await makeHome();
    // The passphrase lives in the file here (no env override), so the rotation route can change it.
    delete home.env.AGENTWATCH_API_PASSPHRASE;
    await mkdir(path.dirname(home.configFile), { recursive: true });
    await writeFile(home.configFile, `${JSON.stringify({ api_passphrase: OLD_PASSPHRASE, webhooks: webhooks(receiverUrl) })}\n`);
    session = { ...SESSION, cwd: home.home };
    await writeClaudeSession(home.home, session, [prompt(session, 40_000, 'Add a cart page'), reply(session, 20_000, 'msg_1', [text('Done.')])]);
    terminalLog = await fakeTerminal(home);
    [served, browser] = await Promise.all([serve(home, { passphrase: OLD_PASSPHRASE }), launchBrowser()]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await home?.cleanup();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  });

  it('saves each field to the config file and shows the message of a refused value at its field', async () => {
    const { page, context } = await openDashboard(browser, served);
    try {
      await page.getByRole('button', { name: 'Settings' }).click();
      const settings = page.getByRole('dialog', { name: 'Settings' });
      await settings.getByLabel('After (seconds waiting)').fill('45');
      await settings.getByLabel('After (seconds waiting)').press('Enter');
      await eventually(() => readJson(home.configFile), (config) => config.notify_after_sec === 45, 'notify_after_sec saved');
      await settings.getByLabel('Editor', { exact: true }).fill('code --reuse-window');
      await settings.getByLabel('Editor', { exact: true }).press('Tab');
      await eventually(() => readJson(home.configFile), (config) => config.editor === 'code --reuse-window', 'editor saved');
      await settings.getByLabel('Terminal', { exact: true }).selectOption('kitty');
      await eventually(() => readJson(home.configFile), (config) => config.terminal === 'kitty', 'terminal saved');
      await settings.getByLabel('Default filter').selectOption('waiting');
      await eventually(() => readJson(home.configFile), (config) => config.default_filter === 'waiting', 'default_filter saved');
      await settings.getByRole('checkbox', { name: 'pi', exact: true }).uncheck();
      await eventually(() => readJson(home.configFile), (config) => (config.agents as Record<string, boolean>).pi === false, 'agents saved');
      await settings.getByLabel('Hidden working directories').fill('/var/scratch/\n  node_modules  \n');
      await settings.getByLabel('Notify when a session waits for me').check();
      await eventually(() => readJson(home.configFile), (config) => JSON.stringify(config.exclude_cwd_substrings) === '["/var/scratch/","node_modules"]' && config.notifications === true, 'exclusions and notifications saved');

      // A value the schema refuses: the server's message at the field, the file unchanged.
      const before = await readFile(home.configFile, 'utf8');
      const window = settings.getByLabel('Window (minutes)');
      await window.fill('0');
      await window.press('Enter');
      const message = settings.locator('#error-window_minutes');
      await until(() => message.textContent()).toMatch(/window_minutes/);
      expect(await window.getAttribute('aria-invalid')).toBe('true');
      expect(await readFile(home.configFile, 'utf8')).toBe(before);
      await window.fill('60');
      await window.press('Enter');
      await eventually(() => readJson(home.configFile), (config) => config.window_minutes === 60, 'window saved');
      await until(() => message.count()).toBe(0);
      await settings.getByLabel('Default filter').selectOption('');
      await eventually(() => readJson(home.configFile), (config) => config.default_filter === '', 'default_filter reset');
      // launch_at_login writes the XDG autostart entry and removes it again.
      const autostart = path.join(home.env.XDG_CONFIG_HOME ?? '', 'autostart', 'agentwatch.desktop');
      const login = settings.getByRole('checkbox', { name: 'Start agentwatch --gui at login' });
      await login.check();
      await eventually(() => readFile(autostart, 'utf8').catch(() => ''), (entry) => entry.includes('--gui'), 'autostart entry written');
      await eventually(() => readJson(home.configFile), (config) => config.launch_at_login === true, 'launch_at_login saved');
      await login.uncheck();
      await eventually(() => readFile(autostart, 'utf8').then(() => 'present', () => 'gone'), (state) => state === 'gone', 'autostart entry removed');
      await eventually(() => readJson(home.configFile), (config) => config.launch_at_login === false, 'launch_at_login cleared');

      // Webhooks: a read-only list (name, URL, filters, signed or disabled), never the secret;
      // every save above kept them in the file untouched.
      const hooks = settings.locator('li', { hasText: 'team-chat' });
      await until(() => hooks.textContent()).toMatch(/\/hook[\s\S]*events: waiting · agents: claude/);
      expect(await hooks.textContent()).toContain('signed');
      expect(await settings.locator('li', { hasText: 'paused' }).textContent()).toContain('disabled');
      expect(await page.content()).not.toContain(HOOK_SECRET);
      expect((await readJson(home.configFile)).webhooks).toEqual(webhooks(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}`));
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      await until(() => settings.count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('rotates the passphrase without ever showing it; a short one is refused at the field', async () => {
    const { page, context } = await openDashboard(browser, served);
    try {
      await page.getByRole('button', { name: 'Settings' }).click();
      const settings = page.getByRole('dialog', { name: 'Settings' });
      // It says what is true: the file holds the passphrase as plain text, the page never shows it.
      expect(await settings.textContent()).toMatch(/kept as plain text in config\.json[^.]*; this page never shows it/);
      await settings.getByLabel('New passphrase').fill('short');
      await settings.getByLabel('Repeat').fill('short');
      await settings.getByRole('button', { name: 'Change passphrase' }).click();
      await until(() => settings.locator('#error-passphrase').textContent()).toMatch(/12 characters/);
      await settings.getByLabel('New passphrase').fill('a brand new passphrase');
      await settings.getByLabel('Repeat').fill('a brand new passphrase');
      await settings.getByRole('button', { name: 'Change passphrase' }).click();
      await until(() => page.getByRole('status').last().textContent()).toMatch(/applies/);
      expect((await readJson(home.configFile)).api_passphrase).toBe('a brand new passphrase');
      const html = await page.content();
      expect(html).not.toContain(OLD_PASSPHRASE);
      expect(html).not.toContain('a brand new passphrase');
    } finally {
      await context.close();
    }
  });

  it('Resume runs the session in the terminal for the dashboard itself, and refuses a page of another origin', async () => {
    const token = served.token;
    const target = `${served.base}/api/sessions/${session.id}/actions/resume`;
    // A page on another loopback port that tries to start the action (knowing the token, even).
    const evil: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><script>
        fetch(${JSON.stringify(`${target}?token=${token}`)}, { method: 'POST', mode: 'no-cors' }).finally(() => { document.title = 'tried'; });
      </script>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    const context = await browser.newContext();
    let cleanup = async (): Promise<void> => undefined;
    try {
      const page = await context.newPage();
      const answered = page.waitForResponse((response) => response.url().startsWith(target));
      await page.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
      expect((await answered).status()).toBe(403);
      await until(() => page.title()).toBe('tried');

      const { page: dashboard, context: own } = await openDashboard(browser, served);
      cleanup = () => own.close();
      await dashboard.locator(`[data-session-id="${session.id}"]`).getByRole('button', { name: 'Resume' }).click();
      await until(() => dashboard.getByRole('status').textContent()).toContain('Resuming in xdg-terminal-exec');
      const log = await eventually(() => readFile(terminalLog, 'utf8').catch(() => ''), (text) => text.includes('--resume'), 'terminal started');
      // One start: the dashboard's; the other origin's request never ran anything.
      expect(log.trim().split('\n')).toHaveLength(1);
      expect(log).toContain(session.id);
    } finally {
      await cleanup();
      await context.close();
      await new Promise<void>((resolve) => evil.close(() => resolve()));
    }
  });
});
