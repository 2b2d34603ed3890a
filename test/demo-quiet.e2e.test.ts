import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pbkdf2Sync } from 'node:crypto';
import { EventSource } from 'eventsource';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_PATH } from './helpers/cli.js';
import { makeTempHome } from './helpers/temp-home.js';
import { startReceiver } from './sinks/webhook/receiver.js';

/**
 * `--demo` shows generated sessions; it must never reach the outside world: no webhook delivery,
 * no desktop notification, and it says so once (a receiver must never get signed deliveries of
 * fake sessions). The demo's own activity changes are observed over SSE, so
 * the test knows transitions happened while the receiver stayed silent.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('--demo is quiet', { timeout: 60_000 }, () => {
  it('runs its sessions through several activity changes and delivers no webhook', async () => {
    const home = await makeTempHome();
    cleanups.push(home.cleanup);
    const receiver = await startReceiver({});
    cleanups.push(() => receiver.close());
    const salt = 'demo-quiet-salt';
    const passphrase = 'demo quiet passphrase';
    const file = path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ api_salt: salt, notifications: true, webhooks: [{ name: 'receiver', url: receiver.url('/hook') }] }));
    const child = spawn(process.execPath, [CLI_PATH, '--api', '--demo', '--host', '127.0.0.1:0'], {
      env: { ...home.env, AGENTWATCH_API_PASSPHRASE: passphrase },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    cleanups.push(async () => {
      child.kill('SIGTERM');
      await exited;
    });
    const until = async (what: string, predicate: () => boolean, ms = 20_000): Promise<void> => {
      const deadline = Date.now() + ms;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    };
    await until('the API', () => /listening on http:\/\/\S+/.test(stderr));
    const base = /listening on (http:\/\/\S+)/.exec(stderr)?.[1] ?? '';
    const token = pbkdf2Sync(passphrase, salt, 600000, 32, 'sha256').toString('base64url');
    const source = new EventSource(`${base}/api/events?format=patch&token=${token}`);
    cleanups.push(() => source.close());
    let changes = 0;
    source.addEventListener('patch', (event) => {
      changes += (JSON.parse(event.data) as { changed: unknown[] }).changed.length;
    });
    await until('several activity changes of the demo sessions', () => changes >= 5);
    expect(receiver.received).toEqual([]);
    // Said once the background sinks are set up, which can come after the first patches.
    await until('the --demo notice', () => stderr.includes('--demo: sample sessions; webhooks and desktop notifications are off'));
    expect(stderr.match(/webhooks and desktop notifications are off/g)).toHaveLength(1);
    // The demo's waiting session raises its sample notification as a line, never on the desktop.
    await until('the sample notification', () => stderr.includes('--demo: dashboard is waiting for you (sample notification, not sent)'));
    expect(receiver.received).toEqual([]);
  });
});
