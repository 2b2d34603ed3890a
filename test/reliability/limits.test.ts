import { mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LimitAgent } from '../../src/core/agents.js';
import { runCli } from '../limits/helpers/run-cli.js';
import { ALL_LOGINS, makeTempHome, type TempHome } from '../limits/helpers/temp-home.js';
import { startVendorServer, type VendorServer } from '../limits/helpers/vendor-server.js';

/**
 * `agentwatch limits` against oversized provider answers and bad configs:
 * a huge answer is cut at 1 MiB with a per-agent error, an invalid config is exit 1 naming the
 * file, `agents` switches are honoured, and the config is never written.
 */

const GOOD: Record<LimitAgent, string> = {
  claude: 'claude/usage.json',
  codex: 'codex/usage.json',
  grok: 'grok/billing-unified.json',
  kimi: 'kimi/usages.json',
  cursor: 'cursor/usage-summary.json',
};

/** Answers every path with an endless body (chunked, or claiming 200 MB), counting what it sent. */
const startFloodServer = async (): Promise<{ url: string; sent: () => number; close: () => Promise<void> }> => {
  let sent = 0;
  const chunk = Buffer.alloc(64 * 1024, 'a');
  const server = http.createServer((req, res) => {
    const declared = req.url?.includes('/backend-api/') ?? false;
    res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(200 * 1024 * 1024) } : {}) });
    res.write('{"pad":"');
    const pump = (): void => {
      while (!res.destroyed && res.write(chunk)) {
        sent += chunk.length;
        if (sent > 256 * 1024 * 1024) return void res.destroy();
      }
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sent: () => sent,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
};

let vendor: VendorServer;
let flood: Awaited<ReturnType<typeof startFloodServer>>;
const homes: TempHome[] = [];

beforeAll(async () => {
  vendor = await startVendorServer();
  for (const [agent, fixture] of Object.entries(GOOD) as [LimitAgent, string][]) vendor.route(agent, { fixture });
  flood = await startFloodServer();
});
afterAll(async () => {
  await vendor.close();
  await flood.close();
});
afterEach(async () => {
  await Promise.all(homes.splice(0).map((h) => h.remove()));
});

const home = async (): Promise<TempHome> => {
  const made = await makeTempHome(ALL_LOGINS, vendor.url);
  homes.push(made);
  return made;
};

describe('oversized provider answers', () => {
  it('claude (chunked, endless) and codex (200 MB declared) fail at 1 MiB with a clear error; the others are shown', async () => {
    const h = await home();
    const result = await runCli(['limits', '--json'], { ...h.env, AGENTWATCH_CLAUDE_API_URL: flood.url, AGENTWATCH_CODEX_API_URL: flood.url });
    expect(result.code).toBe(1);
    const host = new URL(flood.url).host;
    expect(result.stderr).toContain(`Error (claude): answer from ${host} is larger than 1 MiB; not read`);
    expect(result.stderr).toContain(`Error (codex): answer from ${host} is larger than 1 MiB; not read`);
    const rows = (JSON.parse(result.stdout) as { rows: { agent: string; status: string }[] }).rows;
    expect(rows.find((row) => row.agent === 'grok')?.status).toBe('ok');
    expect(rows.filter((row) => row.status === 'failed').map((row) => row.agent).sort()).toEqual(['claude', 'codex']);
    // Read no more than the cap plus what was in flight: nowhere near the 200 MB offered.
    expect(flood.sent()).toBeLessThan(64 * 1024 * 1024);
    expect(result.ms).toBeLessThan(10_000);
  });
});

describe('the config, read-only', () => {
  const writeConfig = async (h: TempHome, text: string): Promise<string> => {
    const file = path.join(h.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
    return file;
  };

  it.each([
    ['not JSON', '{ "agents": { "claude": false ', /:1:31: not valid JSON .*; running without it/],
    ['a wrongly typed value', '{ "window_minutes": "thirty" }', /window_minutes "thirty" is not a whole number/],
  ])('%s: says so on stderr naming the file, runs as on the defaults, file byte-identical', async (_name, text, why) => {
    const h = await home();
    const file = await writeConfig(h, text);
    const result = await runCli(['limits', '--json'], h.env);
    expect(result.stderr).toContain(file);
    expect(result.stderr).toMatch(why);
    expect(await readFile(file, 'utf8')).toBe(text);
    // As a run on the defaults answers.
    await writeConfig(h, '{}');
    const defaults = await runCli(['limits', '--json'], h.env);
    expect(result.code).toBe(defaults.code);
    expect((JSON.parse(result.stdout) as { rows: { agent: string }[] }).rows.map((row) => row.agent)).toEqual((JSON.parse(defaults.stdout) as { rows: { agent: string }[] }).rows.map((row) => row.agent));
  });

  it('agents switched off are not queried or shown; the config is not written', async () => {
    const h = await home();
    const text = '{ "agents": { "claude": false, "cursor": false } }';
    const file = await writeConfig(h, text);
    vendor.requests.length = 0;
    const result = await runCli(['limits', '--json'], h.env);
    expect(result.code).toBe(0);
    const agents = (JSON.parse(result.stdout) as { rows: { agent: string }[] }).rows.map((row) => row.agent);
    expect(agents).not.toContain('claude');
    expect(agents).not.toContain('cursor');
    expect(agents).toContain('codex');
    expect(vendor.requests.map((r) => r.agent).sort()).toEqual(['codex', 'grok', 'kimi']);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('--agent naming a disabled agent: exit 1 saying where it is disabled', async () => {
    const h = await home();
    const file = await writeConfig(h, '{ "agents": { "claude": false } }');
    const result = await runCli(['limits', '--agent', 'claude'], h.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`claude is disabled in ${file} (agents.claude: false)`);
  });

  it('with no config file, nothing is created', async () => {
    const h = await home();
    const before = await h.listFiles();
    const result = await runCli(['limits'], h.env);
    expect(result.code).toBe(0);
    expect(await h.listFiles()).toEqual(before);
  });
});

describe("a provider's error body on the terminal", () => {
  it('is shown escaped: no escape sequence, C1, bidi or zero-width character reaches stderr', async () => {
    const hostile = '\u001b]52;c;cHduZWQ=\u0007 \u001b[2J \u001b]0;owned\u0007 \u009b2J \u202e \u200b';
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`upstream failed ${hostile}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const h = await home();
      const result = await runCli(['limits', '--agent', 'claude'], { ...h.env, AGENTWATCH_CLAUDE_API_URL: url });
      expect(result.code).toBe(1);
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      const unsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/u;
      expect(result.stderr).not.toMatch(unsafe);
      expect(result.stdout).not.toMatch(unsafe);
      expect(result.stderr).toContain('upstream failed \\x1b]52;c;cHduZWQ=\\x07 \\x1b[2J \\x1b]0;owned\\x07 \\x9b2J \\u202e \\u200b');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
