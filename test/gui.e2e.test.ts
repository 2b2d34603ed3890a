import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deriveToken } from '../src/sinks/http/token.js';
import { CLI_PATH, runCli } from './helpers/cli.js';
import { makeTempHome, type TempHome } from './helpers/temp-home.js';
import { fakeProgram, recorded } from './sinks/http/dashboard-fixture.js';
import { fixture, startClaudeVendor } from './sinks/tui/vendor.js';

/**
 * `agentwatch --gui` as a real process on a temp HOME: the dashboard URL on stderr without the
 * token, the browser (a fake one on a PATH of its own, recording its argv) opened with the token
 * in the fragment, Settings changes applied to the running monitor, and GET /api/limits giving
 * what `agentwatch limits --json` prints against the same local vendor stand-in.
 */

const PASSPHRASE = 'correct horse battery staple';
const SESSION = '0b5e7c1a-1111-4222-8333-944445555666';
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Running {
  readonly child: ChildProcess;
  readonly base: string;
  readonly stderr: () => string;
  readonly exited: Promise<number | null>;
}

const writeTranscript = async (home: TempHome): Promise<void> => {
  const dir = path.join(home.home, '.claude', 'projects', '-home-dev-shop');
  await mkdir(dir, { recursive: true });
  const record = { isSidechain: false, userType: 'external', cwd: '/home/dev/shop', sessionId: SESSION, version: '2.0.31', gitBranch: 'main', type: 'user', message: { role: 'user', content: 'Add a cart page' }, timestamp: new Date(Date.now() - 5_000).toISOString() };
  await writeFile(path.join(dir, `${SESSION}.jsonl`), `${JSON.stringify(record)}\n`);
};

/** A temp HOME whose PATH holds only fake programs (never the machine's real browsers). */
const makeHome = async (): Promise<TempHome & { bin: string; records: string }> => {
  const home = await makeTempHome();
  cleanups.push(home.cleanup);
  const bin = path.join(home.root, 'bin');
  const records = path.join(home.root, 'records');
  await mkdir(bin, { recursive: true });
  await mkdir(records, { recursive: true });
  home.env.PATH = bin;
  home.env.AGENTWATCH_API_PASSPHRASE = PASSPHRASE;
  // A display to open windows on (the browsers are fake; without one, no window is tried).
  home.env.DISPLAY = ':99';
  return { ...home, bin, records };
};

const start = (home: TempHome, args: string[], extraEnv: Record<string, string> = {}): Promise<Running> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_PATH, ...args], { env: { ...home.env, ...extraEnv }, cwd: home.home, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /dashboard at (http:\/\/\S+)\//.exec(stderr);
      if (match?.[1]) resolve({ child, base: match[1], stderr: () => stderr, exited });
    });
    void exited.then((code) => reject(new Error(`agentwatch exited (${code}) before serving the dashboard: ${stderr}`)));
  });

const salt = async (home: TempHome): Promise<string> =>
  (JSON.parse(await readFile(path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json'), 'utf8')) as { api_salt: string }).api_salt;

const waitFor = async <T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> => {
  for (let tries = 0; tries < 400; tries += 1) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition never met');
};

describe('agentwatch --gui (spawned)', () => {
  it('opens an app window of an installed Chromium with the token in the fragment; stderr never holds the token', async () => {
    const home = await makeHome();
    await fakeProgram(home, 'chromium');
    await fakeProgram(home, 'xdg-open');
    const gui = await start(home, ['--gui', '--host', '127.0.0.1:0', '--agent', 'claude']);
    const token = await deriveToken(PASSPHRASE, await salt(home));
    const browser = await recorded(home, 'chromium');
    expect(browser.argv).toEqual([`--app=${gui.base}/#token=${token}`]);
    await waitFor(async () => gui.stderr(), (text) => text.includes('opened the dashboard'));
    expect(gui.stderr()).toContain(`agentwatch: dashboard at ${gui.base}/\n`);
    expect(gui.stderr()).toContain('opened the dashboard in an app window of chromium');
    expect(gui.stderr()).not.toContain(token);
    // The page itself is public (the built dashboard, or the page saying it is not built).
    const page = await fetch(`${gui.base}/`);
    expect([200, 503]).toContain(page.status);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    gui.child.kill('SIGTERM');
    expect(await gui.exited).toBe(0);
  });

  it('without a Chromium-family browser opens the default browser (xdg-open)', async () => {
    const home = await makeHome();
    await fakeProgram(home, 'xdg-open');
    const gui = await start(home, ['--gui', '--host', '127.0.0.1:0', '--agent', 'claude']);
    const token = await deriveToken(PASSPHRASE, await salt(home));
    expect((await recorded(home, 'xdg-open')).argv).toEqual([`${gui.base}/#token=${token}`]);
  });

  it('without a display opens nothing and says why, with the URL and how to sign in', async () => {
    const home = await makeHome();
    delete home.env.DISPLAY;
    await fakeProgram(home, 'chromium');
    const gui = await start(home, ['--gui', '--host', '127.0.0.1:0', '--agent', 'claude']);
    await waitFor(async () => gui.stderr(), (text) => text.includes('no dashboard window'));
    expect(gui.stderr()).toContain(
      `agentwatch: no dashboard window: there is no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set); open ${gui.base}/ in a browser yourself and sign in with your passphrase`,
    );
    expect(gui.stderr()).not.toContain('opened the dashboard');
    await expect(recorded(home, 'chromium')).rejects.toThrow(/never started/);
  });

  it('--no-open serves without opening; Settings changes apply to the running monitor; limits read like `agentwatch limits --json`', async () => {
    const home = await makeHome();
    await fakeProgram(home, 'chromium');
    await writeTranscript(home);
    const vendor = await startClaudeVendor();
    cleanups.push(vendor.close);
    await mkdir(path.join(home.home, '.claude'), { recursive: true });
    await writeFile(path.join(home.home, '.claude', '.credentials.json'), fixture('claude/credentials.json'));
    const vendorEnv = { AGENTWATCH_CLAUDE_API_URL: vendor.url };
    const gui = await start(home, ['--gui', '--no-open', '--api', '--host', '127.0.0.1:0', '--agent', 'claude'], vendorEnv);
    const headers = { authorization: `Bearer ${await deriveToken(PASSPHRASE, await salt(home))}` };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads of JSON answers
    const json = async (url: string): Promise<any> => (await fetch(`${gui.base}${url}`, { headers })).json();
    // --gui --api: one server.
    expect(gui.stderr().match(/API listening on/g)).toHaveLength(1);

    const listed = await waitFor(() => json('/api/sessions'), (sessions: { session_id: string }[]) => sessions.length === 1);
    expect(listed[0]?.session_id).toBe(SESSION);
    const saved = await fetch(`${gui.base}/api/config`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ window_minutes: 240, exclude_cwd_substrings: ['/home/dev/shop'] }) });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ window_minutes: 240, exclude_cwd_substrings: ['/home/dev/shop'] });
    // Applied at once, without any new record: the window in the stats, the exclusion in the list.
    expect(await json('/api/stats')).toMatchObject({ window_minutes: 240, total_sessions: 0 });
    expect(await json('/api/sessions')).toEqual([]);

    const limits = await json('/api/limits?agent=claude');
    const cli = await runCli(['limits', '--agent', 'claude', '--json'], { env: { ...home.env, ...vendorEnv } });
    expect(cli.code).toBe(0);
    const printed = JSON.parse(cli.stdout) as { rows: unknown[] };
    expect(limits.rows).toEqual(printed.rows);
    expect(vendor.requests.filter((r) => r.path === '/api/oauth/usage')).toHaveLength(2);

    // Never opened a browser.
    await expect(readFile(path.join(home.records, 'chromium.argv'))).rejects.toThrow(/ENOENT/);
    gui.child.kill('SIGTERM');
    expect(await gui.exited).toBe(0);
  });

  it('--no-open without --gui is a usage error; help lists --gui and --no-open', async () => {
    const home = await makeHome();
    const usage = await runCli(['--api', '--no-open'], { env: home.env });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('--no-open goes with --gui');
    const help = await runCli(['--help'], { env: home.env });
    expect(help.stdout).toContain('agentwatch [--tui] [--api] [--gui [--no-open]] [--host ADDR]');
    expect(help.stdout).toMatch(/--no-open +with --gui: do not open a browser/);
  });
});
