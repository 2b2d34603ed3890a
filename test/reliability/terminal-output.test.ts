import { cp, mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDeliveryStore, webhookQueuePath } from '../../src/sinks/webhook/delivery-store.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/**
 * Transcript text, names and peers' bodies reach the terminal only made safe: a crafted prompt
 * must not write the clipboard (OSC 52), clear the screen (CSI 2J), set the window title (OSC 0)
 * or reorder the line (U+202E). The fixture and the peers carry all of these; `--json` keeps them.
 */

const FIXTURE = fileURLToPath(new URL('../../fixtures/claude/hostile-text', import.meta.url));
const SID = '7e0c1d2a-5b3f-4c8d-9e1f-0a2b3c4d5e6f';
const HOSTILE = '\u001b]52;c;cHduZWQ=\u0007 \u001b[2J \u001b]0;owned\u0007 \u009b2J \u202e \u200b';
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/u;

const expectSafe = (result: CliResult): void => {
  expect(result.stdout).not.toMatch(UNSAFE);
  expect(result.stderr).not.toMatch(UNSAFE);
};

let temp: TempHome;
let receiver: Server;
let receiverUrl = '';

beforeAll(async () => {
  temp = await makeTempHome('agentwatch-rel-terminal-');
  await cp(FIXTURE, temp.home, { recursive: true });
  const config = path.join(temp.env.XDG_CONFIG_HOME ?? '', 'agentwatch');
  await mkdir(config, { recursive: true });
  // A names file written before names were checked: it still holds a hostile name.
  await writeFile(path.join(config, 'session-names.json'), JSON.stringify({ [SID]: `Renamed ${HOSTILE}` }));
  receiver = createServer((request, response) => {
    request.resume();
    response.writeHead(400, { 'content-type': 'text/plain' }).end(`rejected ${HOSTILE}`);
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  await writeFile(path.join(config, 'config.json'), JSON.stringify({ webhooks: [{ name: 'probe', url: receiverUrl }] }));
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  await temp.cleanup();
});

describe('text from transcripts and peers on the terminal', () => {
  it('sessions: the table shows the name escaped; --json keeps it', async () => {
    const table = await runCli(['sessions', '--all'], { env: temp.env });
    expect(table.code, table.stderr).toBe(0);
    expectSafe(table);
    expect(table.stdout).toContain('Renamed \\x1b]52;c;cHduZWQ=\\x07 \\x1b[2J');
    const json = await runCli(['sessions', '--all', '--json'], { env: temp.env });
    const listed = JSON.parse(json.stdout) as { session_id: string; custom_name?: string }[];
    expect(listed.find((s) => s.session_id === SID)?.custom_name).toBe(`Renamed ${HOSTILE}`);
  });

  it('search: snippets and titles escaped; --json keeps them', async () => {
    const found = await runCli(['search', 'kraken'], { env: temp.env, timeoutMs: 60_000 });
    expect(found.code, found.stderr).toBe(0);
    expectSafe(found);
    expect(found.stdout).toContain('kraken');
    expect(found.stdout).toContain('\\x1b]52;c;');
    const json = await runCli(['search', 'kraken', '--json'], { env: temp.env, timeoutMs: 60_000 });
    expect(json.stdout).toContain('\\u001b]52;c;');
    expect(json.stdout).toContain(HOSTILE.slice(-3));
  });

  it('doctor: a hostile record type in a diagnostic is escaped', async () => {
    const doctor = await runCli(['doctor'], { env: temp.env, timeoutMs: 60_000 });
    expectSafe(doctor);
    expect(doctor.stdout).toContain('probe\\x1b]0;owned\\x07\\u202e');
  });

  it("webhooks test: the receiver's body is escaped", async () => {
    const tested = await runCli(['webhooks', 'test'], { env: temp.env });
    expect(tested.code).toBe(1);
    expectSafe(tested);
    expect(tested.stdout).toContain('rejected \\x1b]52;c;');
  });

  it('webhooks log: a stored error body is escaped; --json keeps it', async () => {
    const store = openDeliveryStore(webhookQueuePath(temp.env), { owner: 'probe-run' });
    store.enqueue({ id: 'hostile-1', webhook: 'probe', body: '{}', createdAt: Date.now() });
    store.markRefused('hostile-1', { at: Date.now(), status: 400, error: `HTTP 400: ${HOSTILE}`, latencyMs: 3 });
    store.close();
    const log = await runCli(['webhooks', 'log'], { env: temp.env });
    expect(log.code, log.stderr).toBe(0);
    expectSafe(log);
    expect(log.stdout).toContain('HTTP 400: \\x1b]52;c;');
    const json = JSON.parse((await runCli(['webhooks', 'log', '--json'], { env: temp.env })).stdout) as { id: string; error: string }[];
    expect(json.find((record) => record.id === 'hostile-1')?.error).toBe(`HTTP 400: ${HOSTILE}`);
  });
});
