import { spawn } from 'node:child_process';
import { pbkdf2Sync } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendClaudeRecords, prompt, reply, text, toolUse, writeClaudeSession, type ClaudeSession } from '../gui/fixture.js';
import { CLI_PATH } from '../helpers/cli.js';
import { until } from '../helpers/monitor-process.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { startReceiver, type Receiver } from '../sinks/webhook/receiver.js';

/**
 * The built CLI as a process (`--api` with a webhook to a local receiver), stopped with SIGTERM
 * and with kill -9 while its sessions keep changing, and started again: the receiver gets every
 * change once (a request a killed run left in flight may come again, under the same delivery id),
 * in order, each `from` the `to` before it, and what changed while no agentwatch ran marked
 * `"replayed": true`. Waits poll for what is expected, with a deadline; nothing sleeps for time.
 */
const SESSION: ClaudeSession = { id: '5e1f0c9e-2b7a-4f53-9e1d-8a4c2b7e5f77', cwd: '/home/dev/restart-shop' };

interface Got {
  readonly id: string;
  readonly session_id: string;
  readonly from: string;
  readonly to: string;
  readonly replayed?: boolean;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The monitor as a process: its stderr, and the two ways to end it. */
const SALT = 'restart-test-salt';
const PASSPHRASE = 'restart test passphrase';
const TOKEN = pbkdf2Sync(PASSPHRASE, SALT, 600000, 32, 'sha256').toString('base64url');

/** The session's activity as the monitor's API says it, once its first discovery is done. */
const activityOf = async (base: string): Promise<string | undefined> => {
  const headers = { authorization: `Bearer ${TOKEN}` };
  const stats = (await (await fetch(`${base}/api/stats`, { headers })).json()) as { ready: boolean };
  if (!stats.ready) return undefined;
  const sessions = (await (await fetch(`${base}/api/sessions`, { headers })).json()) as { session_id: string; activity: string }[];
  return sessions.find((s) => s.session_id === SESSION.id)?.activity;
};

const launch = async (home: TempHome) => {
  const child = spawn(process.execPath, [CLI_PATH, '--api', '--host', '127.0.0.1:0'], { env: { ...home.env, AGENTWATCH_API_PASSPHRASE: PASSPHRASE }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const end = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  cleanups.push(() => end('SIGKILL'));
  const base = await until('the API', () => /listening on (http:\/\/\S+)/.exec(stderr)?.[1], { context: () => stderr });
  // Changes are announced from the end of the first discovery on.
  const at = await until('the first discovery', () => activityOf(base), { context: () => stderr });
  return { stderr: () => stderr, end, at };
};

/** Each change the receiver answered, once per delivery id (a retry carries the id of its first attempt). */
const deliveries = (receiver: Receiver): Got[] => {
  const seen = new Map<string, Got>();
  for (const hit of receiver.received) {
    const id = String(hit.headers['x-agentwatch-delivery'] ?? '');
    if (!seen.has(id)) seen.set(id, { id, ...(hit.json as Omit<Got, 'id'>) });
  }
  return [...seen.values()].filter((got) => got.session_id === SESSION.id);
};

const now = 0;
/** One step of the agent: the result of its last tool, then its next call. */
const step = (n: number, tool: string): object[] => [
  { ...(prompt(SESSION, now, '') as object), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${n - 1}`, content: 'ok' }] } },
  reply(SESSION, now, `msg_${n}`, [toolUse(`toolu_${n}`, tool, tool === 'Bash' ? { command: 'npm test' } : { file_path: '/home/dev/restart-shop/src/cart.ts' })]),
];

describe('a restarted monitor delivers every change once, in order, with true from/to', { timeout: 180_000 }, () => {
  it('SIGTERM, then kill -9, with changes while down: replayed catch-ups and a true chain', async () => {
    const home = await makeTempHome('agentwatch-restart-');
    cleanups.push(home.cleanup);
    const receiver = await startReceiver({});
    cleanups.push(() => receiver.close());
    const file = path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ api_salt: SALT, webhooks: [{ name: 'r', url: receiver.url('/hook') }] }));
    // The agent answered a minute ago: the session waits for its user.
    await writeClaudeSession(home.home, SESSION, [prompt(SESSION, 70_000, 'Add a cart page'), reply(SESSION, 60_000, 'msg_0', [text('Which framework?')])]);

    const got = (count: number, context: () => string) => until(`${count} deliveries`, () => deliveries(receiver).length >= count, { ms: 30_000, context: () => `${context()}\n${JSON.stringify(deliveries(receiver))}` });

    // Run 1: the user answers, the agent reads, then runs the tests.
    const first = await launch(home);
    expect(first.at).toBe('waiting');
    await appendClaudeRecords(home.home, SESSION, [prompt(SESSION, now, 'React, please'), reply(SESSION, now, 'msg_1', [toolUse('toolu_1', 'Read', { file_path: '/home/dev/restart-shop/package.json' })])]);
    await got(1, first.stderr);
    await appendClaudeRecords(home.home, SESSION, step(2, 'Bash'));
    await got(2, first.stderr);
    await first.end('SIGTERM');

    // Down: the agent edits a file.
    await appendClaudeRecords(home.home, SESSION, step(3, 'Edit'));

    // Run 2: says where the session is now (replayed), then a live change; then killed hard.
    const second = await launch(home);
    await got(3, second.stderr);
    await appendClaudeRecords(home.home, SESSION, step(4, 'Bash'));
    await got(4, second.stderr);
    await second.end('SIGKILL');

    // Down again: the agent reads.
    await appendClaudeRecords(home.home, SESSION, step(5, 'Read'));

    // Run 3: the catch-up of what changed while killed.
    const third = await launch(home);
    await got(5, third.stderr);
    await third.end('SIGTERM');

    const chain = deliveries(receiver).map(({ from, to, replayed }) => ({ from, to, ...(replayed ? { replayed } : {}) }));
    expect(chain).toEqual([
      { from: 'waiting', to: 'reading' },
      { from: 'reading', to: 'running' },
      { from: 'running', to: 'writing', replayed: true },
      { from: 'writing', to: 'running' },
      { from: 'running', to: 'reading', replayed: true },
    ]);
    // Every signature-less delivery parsed, nothing else for this session.
    expect(receiver.received.every((hit) => hit.json !== undefined)).toBe(true);
  });
});
