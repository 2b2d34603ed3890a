import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EventSource } from 'eventsource';
import { afterEach, describe, expect, it } from 'vitest';
import { deriveToken } from '../src/sinks/http/token.js';
import { CLI_PATH, runCli } from './helpers/cli.js';
import { makeTempHome, type TempHome } from './helpers/temp-home.js';

/**
 * `agentwatch --api` as a real process: real config files, a real claude transcript in a temp
 * HOME watched by the real source, real HTTP and SSE over loopback.
 */

const PASSPHRASE = 'correct horse battery staple';
const SESSION = '0b5e7c1a-1111-4222-8333-944445555666';
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const line = (record: Record<string, unknown>): string =>
  `${JSON.stringify({ isSidechain: false, userType: 'external', cwd: '/home/dev/shop', sessionId: SESSION, version: '2.0.31', gitBranch: 'main', ...record })}\n`;

const writeTranscript = async (home: TempHome): Promise<string> => {
  const dir = path.join(home.home, '.claude', 'projects', '-home-dev-shop');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${SESSION}.jsonl`);
  const at = new Date(Date.now() - 5_000).toISOString();
  await writeFile(file, line({ type: 'user', message: { role: 'user', content: 'Add a cart page' }, timestamp: at }));
  return file;
};

interface Running {
  readonly child: ChildProcess;
  readonly base: string;
  stderr: () => string;
  readonly exited: Promise<number | null>;
}

/** Spawn `agentwatch ...args` and wait for the "API listening on" line (or the process to end). */
const startApi = (home: TempHome, args: string[], extraEnv: Record<string, string> = {}): Promise<Running> =>
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
      const match = /API listening on (http:\/\/\S+) /.exec(stderr);
      if (match?.[1]) resolve({ child, base: match[1], stderr: () => stderr, exited });
    });
    void exited.then((code) => reject(new Error(`agentwatch exited (${code}) before listening: ${stderr}`)));
  });

/** Polls GET /api/stats until the first discovery is done (the server answers before that). */
const waitReady = async (base: string, headers: Record<string, string>): Promise<void> => {
  for (let tries = 0; !((await (await fetch(`${base}/api/stats`, { headers })).json()) as { ready: boolean }).ready; tries += 1) {
    if (tries > 400) throw new Error('discovery never became ready');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

const configOf = async (home: TempHome): Promise<{ api_salt: string; api_passphrase: string }> =>
  JSON.parse(await readFile(path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json'), 'utf8')) as { api_salt: string; api_passphrase: string };

describe('agentwatch --api (spawned)', () => {
  it('serves auth, sessions, SSE updates after a transcript append, renames, and stops cleanly on SIGTERM', async () => {
    const home = await makeTempHome();
    cleanups.push(home.cleanup);
    const transcript = await writeTranscript(home);
    const api = await startApi(home, ['--api', '--host', '127.0.0.1:0', '--agent', 'claude'], { AGENTWATCH_API_PASSPHRASE: PASSPHRASE });

    const { api_salt, api_passphrase } = await configOf(home);
    expect(api_passphrase).toBe(''); // the environment passphrase is never written
    const auth = await (await fetch(`${api.base}/api/auth`)).json();
    expect(auth).toEqual({ salt: api_salt, iterations: 600000, key_length: 32, hash: 'SHA-256', encoding: 'base64url-no-padding' });
    const token = await deriveToken(PASSPHRASE, api_salt);
    const headers = { authorization: `Bearer ${token}` };

    expect((await fetch(`${api.base}/api/sessions`)).status).toBe(401);
    // The server listens while the first discovery runs; once stats say ready, the list is complete.
    await waitReady(api.base, headers);
    const sessions = await (await fetch(`${api.base}/api/sessions`, { headers })).json();
    expect(sessions).toMatchObject([{ session_id: SESSION, agent: 'claude', cwd: '/home/dev/shop', short_name: 'shop', activity: 'thinking' }]);

    const source = new EventSource(`${api.base}/api/events?token=${token}`);
    cleanups.push(() => source.close());
    const updates: { sessions: { session_id: string; activity: string; custom_name: string }[] }[] = [];
    const next = (predicate: (u: (typeof updates)[number]) => boolean) =>
      new Promise<void>((resolve) => {
        const check = () => (updates.some(predicate) ? resolve() : setTimeout(check, 20));
        check();
      });
    source.addEventListener('update', (event) => updates.push(JSON.parse(event.data)));
    await next((u) => u.sessions[0]?.activity === 'thinking');

    await appendFile(
      transcript,
      line({
        type: 'assistant',
        message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Write', input: { file_path: '/home/dev/shop/cart.tsx', content: 'x' } }], usage: { input_tokens: 5, output_tokens: 7 } },
        timestamp: new Date().toISOString(),
      }),
    );
    await next((u) => u.sessions[0]?.activity === 'writing');

    const renamed = await fetch(`${api.base}/api/sessions/${SESSION}/name`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Cart page' }) });
    expect(await renamed.json()).toEqual({ session_id: SESSION, custom_name: 'Cart page' });
    await next((u) => u.sessions[0]?.custom_name === 'Cart page');
    const names = JSON.parse(await readFile(path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'session-names.json'), 'utf8'));
    expect(names).toEqual({ [SESSION]: 'Cart page' });

    api.child.kill('SIGTERM');
    expect(await api.exited).toBe(0);
  });

  it('?format=patch: one snapshot, then patch events carrying only the changed session', async () => {
    const home = await makeTempHome();
    cleanups.push(home.cleanup);
    const transcript = await writeTranscript(home);
    const api = await startApi(home, ['--api', '--host', '127.0.0.1:0', '--agent', 'claude'], { AGENTWATCH_API_PASSPHRASE: PASSPHRASE });
    const token = await deriveToken(PASSPHRASE, (await configOf(home)).api_salt);
    await waitReady(api.base, { authorization: `Bearer ${token}` });
    const source = new EventSource(`${api.base}/api/events?format=patch&token=${token}`);
    cleanups.push(() => source.close());
    const events: { type: string; data: { sessions?: { session_id: string }[]; changed?: { session_id: string; activity: string }[]; removed?: string[] } }[] = [];
    for (const type of ['snapshot', 'patch', 'update']) source.addEventListener(type, (event) => events.push({ type, data: JSON.parse(event.data) }));
    const until = async (predicate: () => boolean): Promise<void> => {
      const deadline = Date.now() + 10_000;
      while (!predicate() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    };
    await until(() => events.length > 0);
    expect(events[0]).toMatchObject({ type: 'snapshot', data: { sessions: [{ session_id: SESSION }] } });
    await appendFile(
      transcript,
      line({
        type: 'assistant',
        message: { id: 'msg_p', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_p', name: 'Read', input: { file_path: '/home/dev/shop/a.ts' } }], usage: { input_tokens: 1, output_tokens: 1 } },
        timestamp: new Date().toISOString(),
      }),
    );
    await until(() => events.some((e) => e.type === 'patch' && e.data.changed?.some((s) => s.activity === 'reading')));
    const patch = events.find((e) => e.type === 'patch' && e.data.changed?.some((s) => s.activity === 'reading'));
    expect(patch?.data).toMatchObject({ changed: [{ session_id: SESSION, activity: 'reading' }], removed: [] });
    expect(events.some((e) => e.type === 'update')).toBe(false);
    api.child.kill('SIGTERM');
    expect(await api.exited).toBe(0);
  });

  it('delivers webhooks for transitions, linking back to the API', async () => {
    const received: { headers: Record<string, unknown>; body: Record<string, unknown> }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body: JSON.parse(body) as Record<string, unknown> });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

    const home = await makeTempHome();
    cleanups.push(home.cleanup);
    const file = path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ webhooks: [{ name: 'local', url: hookUrl, events: ['writing'] }] }));
    const transcript = await writeTranscript(home);
    const api = await startApi(home, ['--api', '--host', '127.0.0.1:0', '--agent', 'claude'], { AGENTWATCH_API_PASSPHRASE: PASSPHRASE });
    await waitReady(api.base, { authorization: `Bearer ${await deriveToken(PASSPHRASE, (await configOf(home)).api_salt)}` });

    await appendFile(
      transcript,
      line({
        type: 'assistant',
        message: { id: 'msg_2', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_2', name: 'Edit', input: { file_path: '/home/dev/shop/a.ts' } }], usage: { input_tokens: 1, output_tokens: 1 } },
        timestamp: new Date().toISOString(),
      }),
    );
    const deadline = Date.now() + 10_000;
    while (received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received[0]?.body).toMatchObject({
      event: 'state_transition',
      session_id: SESSION,
      agent: 'claude',
      to: 'writing',
      project_path: '/home/dev/shop',
      api: { session_url: `${api.base}/api/sessions/${SESSION}` },
    });
    expect(received[0]?.headers['x-agentwatch-event']).toBe('state_transition');
    // The durable queue's log and the Prometheus counters both saw it.
    const auth = { authorization: `Bearer ${await deriveToken(PASSPHRASE, (await configOf(home)).api_salt)}` };
    const waitDelivered = Date.now() + 5_000;
    let log: { webhook: string; state: string; status: number }[] = [];
    while (Date.now() < waitDelivered && log[0]?.state !== 'delivered') {
      log = (await (await fetch(`${api.base}/api/webhooks/deliveries`, { headers: auth })).json()) as typeof log;
    }
    expect(log).toEqual([expect.objectContaining({ webhook: 'local', state: 'delivered', status: 204 })]);
    const metrics = await (await fetch(`${api.base}/metrics`, { headers: auth })).text();
    expect(metrics).toMatch(/agentwatch_webhook_deliveries_total\{webhook="local",outcome="delivered"\} 1/);
    expect(metrics).toMatch(/agentwatch_webhook_queue_depth\{webhook="local"\} 0/);
    api.child.kill('SIGTERM');
    expect(await api.exited).toBe(0);
  });

  it('refuses to start without a passphrase when there is no terminal to ask for one (exit 1)', async () => {
    const home = await makeTempHome();
    cleanups.push(home.cleanup);
    const result = await runCli(['--api', '--host', '127.0.0.1:0'], { env: home.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/the API needs a passphrase and none is configured/);
    expect(result.stderr).not.toMatch(/listening/);
  });

  it('refuses a passphrase shorter than 12 characters (env or file), exit 1', async () => {
    const home = await makeTempHome();
    cleanups.push(home.cleanup);
    const fromEnv = await runCli(['--api', '--host', '127.0.0.1:0'], { env: { ...home.env, AGENTWATCH_API_PASSPHRASE: 'short' } });
    expect(fromEnv.code).toBe(1);
    expect(fromEnv.stderr).toMatch(/at least 12 characters/);

    const file = path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json');
    await mkdir(path.dirname(file), { recursive: true });
    const text = '{ "api_passphrase": "tiny", "api_salt": "s" }\n';
    await writeFile(file, text);
    const fromFile = await runCli(['--api', '--host', '127.0.0.1:0'], { env: home.env });
    expect(fromFile.code).toBe(1);
    expect(fromFile.stderr).toMatch(/at least 12 characters/);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('exits 2 with one clear line for a bad --host', async () => {
    const home = await makeTempHome();
    cleanups.push(home.cleanup);
    const host = await runCli(['--api', '--host', 'nowhere:99999'], { env: { ...home.env, AGENTWATCH_API_PASSPHRASE: PASSPHRASE } });
    expect(host.code).toBe(2);
    expect(host.stderr).toMatch(/Invalid port in --host/);
  });
});
