import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { deriveToken } from '../../src/sinks/http/token.js';
import { CLI_PATH } from '../helpers/cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * The dashboard's browser tests: the real server (`agentwatch --gui --no-open`, spawned from
 * dist/ on a temp HOME whose PATH holds only fake programs) and the built page in headless
 * Chromium. Tests skip, saying why, where Chromium is not installed.
 */

export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((file) => existsSync(file));
export const NO_CHROMIUM = 'no Chromium at /usr/bin/chromium: the dashboard browser tests are skipped (apt-get install chromium)';
if (!CHROMIUM) console.warn(NO_CHROMIUM);

export const BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const PASSPHRASE = 'dashboard e2e passphrase';

export interface Home extends TempHome {
  /** The only folder on PATH: fake programs (terminals, editors) written by the test. */
  readonly bin: string;
  /** Where the fake programs record how they were started. */
  readonly records: string;
  readonly configFile: string;
  readonly namesFile: string;
}

export const makeHome = async (): Promise<Home> => {
  const home = await makeTempHome('agentwatch-gui-');
  const bin = path.join(home.root, 'bin');
  const records = path.join(home.root, 'records');
  await mkdir(bin, { recursive: true });
  await mkdir(records, { recursive: true });
  home.env.PATH = bin;
  home.env.AGENTWATCH_API_PASSPHRASE = PASSPHRASE;
  const configDir = path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch');
  return { ...home, bin, records, configFile: path.join(configDir, 'config.json'), namesFile: path.join(configDir, 'session-names.json') };
};

export interface Served {
  readonly base: string;
  readonly token: string;
  readonly child: ChildProcess;
  readonly stderr: () => string;
  readonly stop: () => Promise<void>;
}

/** `agentwatch --gui --no-open` on `home`, on a free loopback port; resolves once it serves. */
export const serve = async (
  home: Home,
  options: { readonly args?: readonly string[]; readonly env?: Record<string, string>; readonly passphrase?: string } = {},
): Promise<Served> => {
  const child = spawn(process.execPath, [CLI_PATH, '--gui', '--no-open', '--host', '127.0.0.1:0', ...(options.args ?? ['--agent', 'claude'])], {
    env: { ...home.env, ...options.env },
    cwd: home.home,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const base = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /dashboard at (http:\/\/[^\s/]+)/.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`agentwatch exited (${code}) before serving the dashboard:\n${stderr}`)));
  });
  const config = JSON.parse(await readFile(home.configFile, 'utf8')) as { api_salt: string };
  return {
    base,
    token: await deriveToken(options.passphrase ?? PASSPHRASE, config.api_salt),
    child,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
};

export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, args: BROWSER_ARGS });

export interface Opened {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Console errors and uncaught exceptions of the page (a test expects none unless it provoked them). */
  readonly problems: string[];
}

/** A fresh browser context (its own sessionStorage) on the dashboard, signed in by the URL fragment as `--gui` opens it. */
export const openDashboard = async (
  browser: Browser,
  served: Served,
  options: {
    readonly query?: string;
    readonly colorScheme?: 'dark' | 'light';
    readonly viewport?: { width: number; height: number };
    /** Runs on the new page before it loads (to watch its requests from the first one). */
    readonly beforeLoad?: (page: Page) => void;
  } = {},
): Promise<Opened> => {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 }, colorScheme: options.colorScheme ?? 'dark' });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  options.beforeLoad?.(page);
  await page.goto(`${served.base}/${options.query ?? ''}#token=${served.token}`);
  return { context, page, problems };
};

/** Polls `read` until `ok` (bounded): for files another process writes. */
export const eventually = async <T>(read: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> => {
  let last: T | undefined;
  for (let tries = 0; tries < 250; tries += 1) {
    last = await read();
    if (ok(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${what} never happened (last: ${JSON.stringify(last)})`);
};

export const readJson = async (file: string): Promise<Record<string, unknown>> => JSON.parse(await readFile(file, 'utf8').catch(() => '{}')) as Record<string, unknown>;

/**
 * `expect.poll` with room for a loaded machine: what the page shows after a server round trip
 * (the default 1 s budget is too tight on a busy 2-core runner).
 */
export const until = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 50 });
