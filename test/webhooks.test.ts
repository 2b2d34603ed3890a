import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { makeTempHome, type TempHome } from './helpers/temp-home.js';
import { startReceiver, type Receiver } from './sinks/webhook/receiver.js';

// `agentwatch webhooks test` spawned as a process (dist/ is built by test/setup/build.ts) against a
// real receiver on 127.0.0.1, with HOME and XDG_* in a temp dir holding the config.
describe('agentwatch webhooks test', () => {
  let home: TempHome;
  let receiver: Receiver;
  let configFile: string;
  const SECRET = 'receiver-shared-secret';

  beforeEach(async () => {
    home = await makeTempHome('aw-webhooks-');
    receiver = await startReceiver({ '/signed': SECRET });
    configFile = path.join(home.env.XDG_CONFIG_HOME!, 'agentwatch', 'config.json');
  });
  afterEach(async () => {
    await receiver.close();
    await home.cleanup();
  });

  const writeConfig = async (webhooks: unknown[]) => {
    await mkdir(path.dirname(configFile), { recursive: true });
    const text = `${JSON.stringify({ window_minutes: 30, webhooks }, null, 2)}\n`;
    await writeFile(configFile, text, { mode: 0o600 });
    return text;
  };
  const run = (...args: string[]) => runCli(['webhooks', 'test', ...args], { env: home.env, cwd: home.home });
  const bodies = (p: string) => receiver.received.filter((r) => r.path === p).map((r) => r.json as Record<string, unknown>);

  it('sends one signed sample to each enabled entry, prints each status, exit 0, config untouched', async () => {
    const text = await writeConfig([
      { name: 'signed', url: receiver.url('/signed'), secret: SECRET, events: ['idle'], agents: ['codex'] },
      { name: 'plain', url: receiver.url('/plain') },
      { name: 'off', url: receiver.url('/off'), enabled: false },
    ]);
    const before = await readdir(path.dirname(configFile));
    const startedAt = Date.now();
    const result = await run();

    expect(result.stderr).toBe('');
    expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^ok\s+signed\s+HTTP 200 OK \(signed, \d+ ms, http:\/\/127\.0\.0\.1:\d+\)$/);
    expect(lines[1]).toMatch(/^ok\s+plain\s+HTTP 200 OK \(unsigned, \d+ ms, http:\/\/127\.0\.0\.1:\d+\)$/);

    expect(receiver.received.map((r) => r.path).sort()).toEqual(['/plain', '/signed']);
    const signed = receiver.received.find((r) => r.path === '/signed')!;
    expect(signed.signatureValid).toBe(true);
    expect(signed.headers['user-agent']).toMatch(/^agentwatch\/\d+\.\d+\.\d+/);
    expect(signed.headers['x-agentwatch-event']).toBe('state_transition');
    // The sample is one this entry would really get: its agent and target state.
    expect(bodies('/signed')[0]).toMatchObject({ event: 'state_transition', session_id: 'agentwatch-webhook-test', agent: 'codex', to: 'idle', project_path: home.home });
    expect(bodies('/plain')[0]).toMatchObject({ agent: 'claude', from: 'thinking', to: 'waiting' });
    const stamped = Date.parse(String(bodies('/plain')[0]?.timestamp));
    expect(stamped).toBeGreaterThanOrEqual(startedAt);
    expect(stamped).toBeLessThanOrEqual(Date.now());
    expect(receiver.received.find((r) => r.path === '/plain')!.headers['x-agentwatch-signature']).toBeUndefined();

    expect(await readFile(configFile, 'utf8')).toBe(text);
    expect(await readdir(path.dirname(configFile))).toEqual(before);
  });

  it('tests only the named entry, even a disabled one (with a note)', async () => {
    await writeConfig([
      { name: 'plain', url: receiver.url('/plain') },
      { name: 'off', url: receiver.url('/off'), enabled: false },
    ]);
    const result = await run('off');
    expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0);
    expect(result.stderr).toBe('agentwatch: webhook "off" is disabled (enabled: false); testing it because it was named\n');
    expect(result.stdout).toMatch(/^ok\s+off\s+HTTP 200 OK/);
    expect(receiver.received.map((r) => r.path)).toEqual(['/off']);
  });

  it('exit 1 when a receiver fails: status and body snippet shown, no retries', async () => {
    receiver.on('/broken', { status: 500, body: 'boom: database\nis down' });
    receiver.on('/fine', { status: 204 });
    await writeConfig([
      { name: 'broken', url: receiver.url('/broken') },
      { name: 'fine', url: receiver.url('/fine') },
    ]);
    const result = await run();
    expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(1);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^failed\s+broken\s+HTTP 500 Internal Server Error: boom: database is down \(unsigned/);
    expect(lines[1]).toMatch(/^ok\s+fine\s+HTTP 204 No Content/);
    expect(result.stderr).toBe('agentwatch: 1 of 2 webhook deliveries failed\n');
    expect(bodies('/broken')).toHaveLength(1);
  });

  it('exit 1 when nothing listens, with the reason', async () => {
    const url = receiver.url('/gone');
    await receiver.close();
    await writeConfig([{ name: 'nobody', url }]);
    const result = await run();
    expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(1);
    expect(result.stdout).toMatch(/^failed\s+nobody\s+.*ECONNREFUSED/);
    receiver = await startReceiver();
  });

  it('--timeout bounds the wait for a receiver that never answers', async () => {
    receiver.on('/hang', 'hang');
    await writeConfig([{ name: 'hang', url: receiver.url('/hang') }]);
    const result = await run('--timeout', '1');
    expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(1);
    expect(result.stdout).toMatch(/^failed\s+hang\s+no response within 1 s \(unsigned/);
    await receiver.waitForAbandoned();
  });

  it('exit 1 for an unknown NAME, listing the configured ones; nothing is sent', async () => {
    await writeConfig([
      { name: 'a', url: receiver.url('/a') },
      { name: 'b', url: receiver.url('/b') },
    ]);
    const result = await run('nope');
    expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`agentwatch: no webhook named "nope" in ${configFile} (configured: "a", "b")\n`);
    expect(receiver.received).toHaveLength(0);
  });

  it('reports invalid entries by name and what is wrong; the valid ones are still tested', async () => {
    await writeConfig([
      { name: 'typo', url: 'htp://example.test', events: ['wating'] },
      { name: 'good', url: receiver.url('/good') },
    ]);
    const all = await run();
    expect(all.code, `stdout: ${all.stdout}\nstderr: ${all.stderr}`).toBe(1);
    expect(all.stderr).toMatch(/^agentwatch: webhook "typo" \(entry 1\) is ignored: url: url must be an http:\/\/ or https:\/\/ URL; events\.0: events must list activity states/);
    expect(all.stdout).toMatch(/^ok\s+good\s+HTTP 200 OK/);

    const named = await run('typo');
    expect(named.code, `stdout: ${named.stdout}\nstderr: ${named.stderr}`).toBe(1);
    expect(named.stderr).toMatch(/^agentwatch: webhook "typo" \(entry 1\) is ignored: url: /);

    const good = await run('good');
    expect(good.code, `stdout: ${good.stdout}\nstderr: ${good.stderr}`).toBe(0);
    expect(good.stderr).toBe('');
  });

  it('without a config file: says there is nothing to test and how to add a webhook, exit 1, and creates no file', async () => {
    const result = await run();
    expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(1);
    expect(result.stderr).toBe(
      `agentwatch: no enabled webhooks in ${configFile}; nothing to test. To test one, add one to "webhooks" there, e.g. {"name": "team", "url": "https://example.com/hook"} (docs/webhooks.md)\n`,
    );
    await expect(readdir(home.env.XDG_CONFIG_HOME!)).rejects.toThrow(/ENOENT/);
  });

  it('a config that is not JSON: exit 1 naming the file, left byte-identical', async () => {
    await mkdir(path.dirname(configFile), { recursive: true });
    await writeFile(configFile, '{ "webhooks": [ }');
    const result = await run();
    expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(1);
    expect(result.stderr).toContain(`${configFile}:1:`);
    expect(await readFile(configFile, 'utf8')).toBe('{ "webhooks": [ }');
  });

  it('a wrongly typed value in an entry keeps only that entry from running: exit 1 naming it and the field, the others sent, file byte-identical', async () => {
    const text = await writeConfig([
      { name: 'good', url: receiver.url('/good') },
      { name: 'typed', url: receiver.url('/typed'), enabled: 'no' },
    ]);
    const result = await run();
    expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(1);
    expect(result.stderr).toMatch(/^agentwatch: webhook "typed" \(entry 2\) is ignored: enabled: Invalid input: expected boolean/);
    expect(result.stdout).toMatch(/^ok\s+good\s+HTTP 200 OK/);
    expect(receiver.received.map((request) => request.path)).toEqual(['/good']);
    expect(await readFile(configFile, 'utf8')).toBe(text);
  });

  it('warns once per unknown config key, with the closest known key, as every command does', async () => {
    await mkdir(path.dirname(configFile), { recursive: true });
    await writeFile(configFile, JSON.stringify({ window_minuts: 5, webhooks: [{ name: 'good', url: receiver.url('/good'), secert: 'x' }] }));
    const result = await run();
    expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(0);
    expect(result.stderr).toBe(
      [
        `agentwatch: ${configFile}: unknown key "window_minuts" (did you mean "window_minutes"?); it is kept in the file but has no effect`,
        `agentwatch: ${configFile}: unknown key "webhooks[0].secert" (did you mean "webhooks[0].secret"?); it is kept in the file but has no effect`,
        '',
      ].join('\n'),
    );
    expect(result.stdout).toMatch(/^ok\s+good\s+HTTP 200 OK/);
  });

  it.each([
    [['log', '--timeout', '5'], 'Unknown flag --timeout for agentwatch webhooks log'],
    [['test', '--limit', '5'], 'Unknown flag --limit for agentwatch webhooks test'],
    [['replay', '--json', '0b6f7c1e'], 'Unknown flag --json for agentwatch webhooks replay'],
    [['replay', '0b6f7c1e', '--limit', '5'], 'Unknown flag --limit for agentwatch webhooks replay'],
    [['log', '--limit', '1e300'], 'Invalid value for --limit: "1e300" (expected a whole number from 1 to 10000)'],
    [['log', '--limit', '010'], 'Invalid value for --limit: "010" (expected a whole number from 1 to 10000)'],
    [['test', '--timeout', '1e300'], 'Invalid value for --timeout: "1e300" (expected a number from 1 to 600)'],
  ])('%j: a flag the subcommand does not take, or a value out of its range, is a usage error (exit 2)', async (args, message) => {
    const result = await runCli(['webhooks', ...args], { env: home.env, cwd: home.home });
    expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`agentwatch: ${message}\nRun agentwatch webhooks ${args[0]} --help\n`);
  });

  it('bad arguments are usage errors (exit 2)', async () => {
    const missing = await runCli(['webhooks'], { env: home.env });
    expect(missing.code, `stdout: ${missing.stdout}\nstderr: ${missing.stderr}`).toBe(2);
    expect(missing.stderr).toMatch(/^agentwatch: Missing subcommand: agentwatch webhooks test \[NAME\] \| log \[NAME\] \| replay ID\n/);
    expect(missing.stderr.split('\n')[1]).toBe('test sends a signed sample delivery, log lists the latest deliveries, replay sends one again; run agentwatch webhooks --help for more');
    const unknown = await runCli(['webhooks', 'send'], { env: home.env });
    expect(unknown.code, `stdout: ${unknown.stdout}\nstderr: ${unknown.stderr}`).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown subcommand "send"/);
    const extra = await run('a', 'b');
    expect(extra.code, `stdout: ${extra.stdout}\nstderr: ${extra.stderr}`).toBe(2);
    const help = await runCli(['webhooks', '--help'], { env: home.env });
    expect(help.code, `stdout: ${help.stdout}\nstderr: ${help.stderr}`).toBe(0);
    expect(help.stdout).toMatch(/^Usage: agentwatch webhooks test \[NAME\]/);
  });
});
