import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deriveToken } from '../src/sinks/http/token.js';
import { CLI_PATH } from './helpers/cli.js';
import { makeTempHome } from './helpers/temp-home.js';

/**
 * Serving at once, as a real process: the socket listens before the app, the token's
 * derivation and the first discovery. With one libuv thread (UV_THREADPOOL_SIZE=1) the 600,000
 * PBKDF2 iterations, queued first, run before any of the discovery's file reads, so requests sent
 * as soon as the process says it listens are judged while the first discovery is still running:
 * `ready: false` with the right token is the proof, and it does not depend on timing.
 */

const PASSPHRASE = 'serve at once passphrase';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('agentwatch --api answers before its first discovery ends (spawned)', () => {
  it('/api/auth at once; the right token gets stats with ready false, a wrong one 401; then ready', async () => {
    const home = await makeTempHome();
    cleanups.push(home.cleanup);
    const dir = path.join(home.home, '.claude', 'projects', '-home-dev-shop');
    await mkdir(dir, { recursive: true });
    const at = new Date(Date.now() - 5_000).toISOString();
    await writeFile(
      path.join(dir, '0b5e7c1a-1111-4222-8333-944445555666.jsonl'),
      `${JSON.stringify({ type: 'user', sessionId: '0b5e7c1a-1111-4222-8333-944445555666', cwd: '/home/dev/shop', message: { role: 'user', content: 'hi' }, timestamp: at })}\n`,
    );

    // The token is derived here first: once the process listens, the requests leave at once.
    const salt = 'serve-at-once-salt';
    await mkdir(path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch'), { recursive: true });
    await writeFile(path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json'), JSON.stringify({ api_salt: salt }));
    const token = await deriveToken(PASSPHRASE, salt);

    const child = spawn(process.execPath, [CLI_PATH, '--api', '--host', '127.0.0.1:0', '--agent', 'claude'], {
      env: { ...home.env, AGENTWATCH_API_PASSPHRASE: PASSPHRASE, UV_THREADPOOL_SIZE: '1' },
      cwd: home.home,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let base: string | undefined;
    for (let i = 0; i < 2_000 && !(base = /API listening on (http:\/\/\S+) /.exec(stderr)?.[1]); i += 1) {
      if (child.exitCode !== null) throw new Error(`agentwatch exited: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    if (!base) throw new Error(`agentwatch never listened: ${stderr}`);

    // Sent at once, before the derivation and the discovery end.
    const [authAnswer, rightAnswer, wrongAnswer] = await Promise.all([
      fetch(`${base}/api/auth`),
      fetch(`${base}/api/stats`, { headers: { authorization: `Bearer ${token}` } }),
      fetch(`${base}/api/stats`, { headers: { authorization: `Bearer ${'x'.repeat(43)}` } }),
    ]);
    expect(await authAnswer.json()).toEqual({ salt, iterations: 600000, key_length: 32, hash: 'SHA-256', encoding: 'base64url-no-padding' });
    expect(rightAnswer.status).toBe(200);
    expect(await rightAnswer.json()).toMatchObject({ ready: false });
    expect(wrongAnswer.status).toBe(401);

    // Then the discovery completes and lists the session.
    let stats = { ready: false, total_sessions: 0 };
    for (let i = 0; i < 400 && !stats.ready; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      stats = (await (await fetch(`${base}/api/stats`, { headers: { authorization: `Bearer ${token}` } })).json()) as typeof stats;
    }
    expect(stats).toMatchObject({ ready: true, total_sessions: 1 });

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 60_000);
});
