import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { allowedHostsFor } from '../../../src/sinks/http/host-check.js';
import { buildServer } from '../../../src/sinks/http/server.js';
import { deriveToken } from '../../../src/sinks/http/token.js';
import { defaultConfig, detail, makeStore, makeTempEnv, viewsOf } from './helpers.js';

/**
 * The playground page in a real headless browser: its inline script runs under the page's CSP,
 * derives the token with Web Crypto from the passphrase (the same token as the server's), and
 * calls the routes. Needs a Chromium binary; the machine that builds agentwatch has one.
 */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((file) => existsSync(file));

describe('GET /api playground', () => {
  it.skipIf(!CHROMIUM)('derives the token in the browser, lists stats and sessions, follows /api/events', { timeout: 60_000 }, async () => {
    const config = defaultConfig({ api_passphrase: 'browser side passphrase' });
    const temp = await makeTempEnv();
    const { store } = await makeStore(temp.env, viewsOf([detail({ session_id: 'pg-1', activity: 'writing', is_active: true })]));
    const token = await deriveToken(config.api_passphrase, config.api_salt);
    const app = await buildServer({ store, token, salt: config.api_salt, config: () => config, allowedHosts: allowedHostsFor('127.0.0.1') });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    // The browser gets the temp HOME/XDG dirs too: nothing of the real home is read or written.
    const browserEnv = Object.fromEntries(Object.entries(temp.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], env: { ...browserEnv, PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(`http://127.0.0.1:${port}/api`);
      await page.fill('#passphrase', `  ${config.api_passphrase} `);
      await page.click('#login button');
      await page.locator('#state', { hasText: 'token ready' }).waitFor();
      expect(await page.textContent('#state')).toBe(`token ready (${token.slice(0, 4)}...)`);

      await page.click('#stats');
      await page.locator('#out', { hasText: 'GET /api/stats -> 200' }).waitFor();
      expect(await page.textContent('#out')).toContain('"active_sessions": 1');

      await page.fill('#filter', 'writing');
      await page.click('#list');
      await page.locator('#out', { hasText: 'GET /api/sessions?filter=writing -> 200' }).waitFor();
      expect(await page.textContent('#out')).toContain('"session_id": "pg-1"');

      // The first stream is refused (as a throttled or restarting server would): the page follows again.
      let refused = 0;
      await page.route('**/api/events**', (route) => (refused++ === 0 ? route.fulfill({ status: 429, body: '{"error":"slow down"}' }) : route.continue()));
      await page.click('#events');
      await page.locator('#out', { hasText: 'update at' }).waitFor();
      expect(refused).toBeGreaterThanOrEqual(2);
      expect(await page.textContent('#out')).toContain('"total_sessions": 1');
      await page.click('#events'); // stop following before the server closes
      // The refused stream's 429 is logged by the browser itself; nothing else may be.
      expect(problems.filter((problem) => !problem.includes('429'))).toEqual([]);
    } finally {
      await browser.close();
      await app.close();
      store.close();
      await temp.cleanup();
    }
  });
});
