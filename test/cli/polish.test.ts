import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

/** First-minutes polish: typos get a suggestion, bad --host a usage line, limits a demo. */
let home: TempHome | undefined;
afterEach(async () => {
  await home?.cleanup();
  home = undefined;
});
const env = async (): Promise<Record<string, string>> => {
  home = await makeTempHome();
  return home.env;
};

describe('did you mean', () => {
  it('a mistyped command names the closest one', async () => {
    const run = await runCli(['sesions'], { env: await env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown command "sesions" (did you mean "agentwatch sessions"?)');
  });

  it('a mistyped flag names the closest one', async () => {
    const run = await runCli(['sessions', '--jsn'], { env: await env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Unknown flag --jsn for agentwatch sessions (did you mean --json?)');
  });

  it('a mistyped command after a flag names the closest one too', async () => {
    const run = await runCli(['--api', 'limts'], { env: await env() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown command "limts" (did you mean "agentwatch limits"?)');
  });

  it('no suggestion when nothing is close', async () => {
    const run = await runCli(['sessions', '--zzzzzzzz'], { env: await env() });
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain('did you mean');
  });
});

describe('--host', () => {
  it('a host name that does not resolve is a one-line usage error (exit 2), not a raw network error', async () => {
    const run = await runCli(['--api', '--host', 'nonsense.invalid'], { env: { ...(await env()), AGENTWATCH_API_PASSPHRASE: 'a long enough passphrase' } });
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe('agentwatch: Invalid value for --host: "nonsense.invalid" (no such host name: nonsense.invalid)');
    expect(run.stderr).not.toContain('getaddrinfo');
  });
});

describe('--host with an address of another machine', () => {
  it.each(['192.0.2.1:7500', '[2001:db8::5]:7500'])('%s is a one-line usage error before anything starts', async (host) => {
    const run = await runCli(['--api', '--host', host], { env: { ...(await env()), AGENTWATCH_API_PASSPHRASE: 'a long enough passphrase' } });
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(`agentwatch: Invalid value for --host: "${host}" is not an address of this machine`);
    expect(run.stderr).not.toContain('EADDRNOTAVAIL');
  });

  it('loopback, the wildcards and the interfaces of this machine are local', async () => {
    const { isLocalAddress } = await import('../../src/sinks/http/local-address.js');
    const interfaces = { eth0: [{ address: '10.1.2.3', netmask: '255.0.0.0', family: 'IPv4', mac: '00:00:00:00:00:00', internal: false, cidr: '10.1.2.3/8' } as const] };
    for (const address of ['127.0.0.1', '127.0.1.1', '::1', '[::1]', '0.0.0.0', '::', '10.1.2.3']) expect(isLocalAddress(address, interfaces), address).toBe(true);
    for (const address of ['192.0.2.1', '10.1.2.4', '2001:db8::5']) expect(isLocalAddress(address, interfaces), address).toBe(false);
  });
});

describe('limits --demo', () => {
  it('prints generated sample windows of every agent, marked as sample, without any request', async () => {
    const base = await env();
    // Any request would go to a closed port and fail the row: none must be made.
    const closed = { AGENTWATCH_CLAUDE_API_URL: 'http://127.0.0.1:9', AGENTWATCH_CODEX_API_URL: 'http://127.0.0.1:9' };
    const table = await runCli(['limits', '--demo'], { env: { ...base, ...closed } });
    expect(table.code).toBe(0);
    for (const row of ['Claude', 'Codex', 'Grok', 'Kimi', 'Cursor Models', 'Cursor API']) expect(table.stdout).toContain(row);
    expect(table.stdout).toContain('Sample data (--demo)');
    const json = await runCli(['limits', '--demo', '--json'], { env: { ...base, ...closed } });
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as { sample: boolean; rows: { status: string; windows: { pace: string | null; note?: string }[] }[] };
    expect(doc.sample).toBe(true);
    expect(doc.rows).toHaveLength(6);
    expect(doc.rows.every((row) => row.status === 'ok' && row.windows.every((w) => w.note?.includes('Sample data')))).toBe(true);
    expect(new Set(doc.rows.flatMap((row) => row.windows.map((w) => w.pace)))).toEqual(new Set(['on track', 'overutilizing', 'underutilizing']));
  });
});
