import { spawn } from 'node:child_process';
import { pbkdf2Sync, randomUUID } from 'node:crypto';
import { appendFile, chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_PATH } from './helpers/cli.js';
import { makeTempHome, type TempHome } from './helpers/temp-home.js';
import { hasTmux, makeTmux } from './helpers/tmux.js';
import { EventSource } from 'eventsource';

/**
 * Desktop notifications come from every long-running mode when `notifications` is true
 * (docs/notifications.md), the TUI included. A stand-in
 * `notify-send` on PATH records its arguments. A Claude session already listed starts waiting
 * while the monitor runs (an answer older than the 10 s thinking grace is appended), and
 * notify_after_sec later the notification is raised.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Setup {
  readonly home: TempHome;
  readonly env: Record<string, string>;
  readonly log: string;
  /** Appends the answer that makes the session wait. */
  readonly answer: () => Promise<void>;
}

const PASSPHRASE = 'a long enough passphrase';
const SALT = 'notify-modes-salt';

const iso = (msAgo: number): string => new Date(Date.now() - msAgo).toISOString();

const setup = async (): Promise<Setup> => {
  const home = await makeTempHome('agentwatch-notify-');
  cleanups.push(home.cleanup);
  const bin = path.join(home.root, 'bin');
  const log = path.join(home.root, 'notify.log');
  await mkdir(bin, { recursive: true });
  await writeFile(path.join(bin, 'notify-send'), `#!/bin/sh\necho "$@" >> ${JSON.stringify(log)}\n`);
  await chmod(path.join(bin, 'notify-send'), 0o755);
  const config = path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch');
  await mkdir(config, { recursive: true });
  await writeFile(path.join(config, 'config.json'), JSON.stringify({ notifications: true, notify_after_sec: 1, api_passphrase: PASSPHRASE, api_salt: SALT }));
  // A session seen idle at start (a prompt 5 minutes ago), in project "shop".
  const id = randomUUID();
  const cwd = path.join(home.root, 'work', 'shop');
  await mkdir(cwd, { recursive: true });
  const dir = path.join(home.home, '.claude', 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${id}.jsonl`);
  const base = { sessionId: id, cwd, version: '2.0.14' };
  await writeFile(file, `${JSON.stringify({ ...base, type: 'user', uuid: randomUUID(), timestamp: iso(300_000), message: { role: 'user', content: 'add a cart' } })}\n`);
  const answer = (): Promise<void> =>
    appendFile(
      file,
      `${JSON.stringify({ ...base, type: 'assistant', uuid: randomUUID(), timestamp: iso(15_000), message: { role: 'assistant', id: `msg_${randomUUID()}`, model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'Cart added. Shall I add tests?' }] } })}\n`,
    );
  return { home, env: { ...home.env, PATH: `${bin}:${home.env.PATH ?? ''}` }, log, answer };
};

const readLog = (file: string): Promise<string> => readFile(file, 'utf8').catch(() => '');

const until = async (what: string, check: () => Promise<boolean> | boolean, ms = 20_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

describe('desktop notifications in every long-running mode', () => {
  it('--api: a session that starts waiting is notified once notify_after_sec has passed', async () => {
    const s = await setup();
    const child = spawn(process.execPath, [CLI_PATH, '--api', '--host', '127.0.0.1:0', '--agent', 'claude'], { env: s.env, cwd: s.home.home, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    cleanups.push(async () => {
      child.kill('SIGTERM');
      await exited;
    });
    await until('the API', () => stderr.includes('listening on'));
    // The change must come after the first discovery (its history raises nothing): wait for stats.ready.
    const base = /listening on (http:\/\/\S+)/.exec(stderr)?.[1] ?? '';
    const token = pbkdf2Sync(PASSPHRASE, SALT, 600000, 32, 'sha256').toString('base64url');
    await until('the first discovery', async () => {
      const stats = (await (await fetch(`${base}/api/stats`, { headers: { authorization: `Bearer ${token}` } })).json()) as { ready?: boolean; total_sessions?: number };
      return stats.ready === true && stats.total_sessions === 1;
    });
    await s.answer();
    await until('the notification', async () => (await readLog(s.log)).includes('shop is waiting for you'));
    expect(await readLog(s.log)).toContain('--app-name=agentwatch');
  });

  it.skipIf(!hasTmux)('--tui: the same notification while the terminal UI runs', async () => {
    const s = await setup();
    const tmux = makeTmux('notify');
    cleanups.push(() => tmux.kill());
    const { NO_COLOR: _noColor, ...env } = s.env;
    tmux.launch('tui', ['--agent', 'claude'], { ...env, TERM: 'xterm-256color', LANG: 'C.UTF-8' });
    // After the first discovery (its history raises nothing): the row is there and the title no longer says discovering.
    await tmux.waitFor('tui', (screen) => screen.includes('shop') && !screen.includes('discovering'), 'the first discovery');
    await s.answer();
    await tmux.waitText('tui', 'waiting');
    await until('the notification', async () => (await readLog(s.log)).includes('shop is waiting for you'));
    tmux.keys('tui', 'q');
    await tmux.waitText('tui', 'EXITED 0');
  });

  it('--demo never raises one, even with notifications on and demo sessions waiting past notify_after_sec', async () => {
    const s = await setup();
    const child = spawn(process.execPath, [CLI_PATH, '--api', '--demo', '--host', '127.0.0.1:0'], { env: s.env, cwd: s.home.home, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    cleanups.push(async () => {
      child.kill('SIGTERM');
      await exited;
    });
    await until('the API', () => stderr.includes('listening on'));
    const base = /listening on (http:\/\/\S+)/.exec(stderr)?.[1] ?? '';
    const token = pbkdf2Sync(PASSPHRASE, SALT, 600000, 32, 'sha256').toString('base64url');
    const source = new EventSource(`${base}/api/events?format=patch&token=${token}`);
    cleanups.push(() => source.close());
    // When each demo session started waiting (a change seen on the patch stream), while it still waits.
    const waitingSince = new Map<string, number>();
    source.addEventListener('patch', (event) => {
      for (const session of (JSON.parse(event.data) as { changed: { session_id: string; activity: string }[] }).changed) {
        if (session.activity !== 'waiting') waitingSince.delete(session.session_id);
        else if (!waitingSince.has(session.session_id)) waitingSince.set(session.session_id, Date.now());
      }
    });
    // A demo session has started waiting and kept waiting for notify_after_sec (1 s) and 2 s more.
    await until('a demo session waiting for 3 s', () => [...waitingSince.values()].some((since) => Date.now() - since >= 3000), 60_000);
    expect(await readLog(s.log)).toBe('');
    expect(stderr).toContain('webhooks and desktop notifications are off');
  }, 70_000);
});
