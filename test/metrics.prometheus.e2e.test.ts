import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFile, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { deriveToken } from '../src/sinks/http/token.js';
import { CLI_PATH } from './helpers/cli.js';
import { makeTempHome, type TempHome } from './helpers/temp-home.js';

/**
 * The fleet recipe for real: Debian's Prometheus scrapes a spawned `agentwatch --api` on a
 * fixture HOME with the bearer token, a transcript append changes the series, and the change is
 * read back through Prometheus' own query API. promtool checks the shipped examples.
 */

const has = (command: string): boolean => {
  try {
    execFileSync(command, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const hasPrometheus = has('prometheus') && has('promtool');
if (!hasPrometheus) console.warn('prometheus/promtool not installed (apt-get install prometheus): the Prometheus end-to-end tests are skipped');

const EXAMPLES = fileURLToPath(new URL('../examples/prometheus/', import.meta.url));
const PASSPHRASE = 'correct horse battery staple';
const SESSION = '7c1f4a2e-2222-4333-8444-955556666777';
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const spawnTracked = (command: string, args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } => {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  });
  return { child, output: () => output };
};

/** Polls `probe` until it returns a value (not undefined) or `ms` pass; fails with `what`. */
const eventually = async <T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> => {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
};

const line = (record: Record<string, unknown>): string =>
  `${JSON.stringify({ isSidechain: false, userType: 'external', cwd: '/home/dev/fleet', sessionId: SESSION, version: '2.0.31', gitBranch: 'main', ...record })}\n`;

const writeTranscript = async (home: TempHome): Promise<string> => {
  const dir = path.join(home.home, '.claude', 'projects', '-home-dev-fleet');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${SESSION}.jsonl`);
  await writeFile(file, line({ type: 'user', message: { role: 'user', content: 'Ship the fleet view' }, timestamp: new Date(Date.now() - 3_000).toISOString() }));
  return file;
};

const startAgentwatch = async (home: TempHome): Promise<string> => {
  const { output } = spawnTracked(process.execPath, [CLI_PATH, '--api', '--host', '127.0.0.1:0', '--agent', 'claude'], { ...home.env, AGENTWATCH_API_PASSPHRASE: PASSPHRASE });
  return eventually('agentwatch to listen', async () => /API listening on (http:\/\/\S+) /.exec(output())?.[1]);
};

describe.skipIf(!hasPrometheus)('Prometheus scraping agentwatch', () => {
  it('promtool accepts the example rules and scrape config', async () => {
    execFileSync('promtool', ['check', 'rules', path.join(EXAMPLES, 'alerts.yml')], { stdio: 'pipe' });
    execFileSync('promtool', ['check', 'config', '--syntax-only', path.join(EXAMPLES, 'prometheus.yml')], { stdio: 'pipe' });
    // The full check also opens the token file and the rule files the config names.
    const home = await makeTempHome();
    cleanups.push(home.cleanup);
    const config = (await readFile(path.join(EXAMPLES, 'prometheus.yml'), 'utf8')).replaceAll('/etc/prometheus/agentwatch.token', path.join(home.root, 'agentwatch.token'));
    await writeFile(path.join(home.root, 'agentwatch.token'), 'token\n', { mode: 0o600 });
    await writeFile(path.join(home.root, 'prometheus.yml'), config);
    await copyFile(path.join(EXAMPLES, 'alerts.yml'), path.join(home.root, 'alerts.yml'));
    const out = execFileSync('promtool', ['check', 'config', path.join(home.root, 'prometheus.yml')], { encoding: 'utf8' });
    expect(out).toContain('SUCCESS');
  });

  it('reads the series a transcript append changes through Prometheus query API', async () => {
    const home = await makeTempHome();
    cleanups.push(home.cleanup);
    const transcript = await writeTranscript(home);
    const base = await startAgentwatch(home);
    const config = JSON.parse(await readFile(path.join(home.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json'), 'utf8')) as { api_salt: string };
    const token = await deriveToken(PASSPHRASE, config.api_salt);
    const tokenFile = path.join(home.root, 'agentwatch.token');
    await writeFile(tokenFile, `${token}\n`, { mode: 0o600 });

    const promPort = await freePort();
    const target = new URL(base).host;
    await writeFile(
      path.join(home.root, 'prometheus.yml'),
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        'scrape_configs:',
        '  - job_name: agentwatch',
        '    authorization: { type: Bearer, credentials_file: ' + JSON.stringify(tokenFile) + ' }',
        `    static_configs: [{ targets: [${JSON.stringify(target)}] }]`,
        '',
      ].join('\n'),
    );
    const prometheus = spawnTracked(
      'prometheus',
      [
        `--config.file=${path.join(home.root, 'prometheus.yml')}`,
        `--storage.tsdb.path=${path.join(home.root, 'tsdb')}`,
        `--web.listen-address=127.0.0.1:${promPort}`,
      ],
      { PATH: process.env.PATH },
    );
    const promBase = `http://127.0.0.1:${promPort}`;
    await eventually(`prometheus to start: ${prometheus.output().slice(-400)}`, async () => ((await fetch(`${promBase}/-/ready`)).ok ? true : undefined));

    const query = async (expr: string): Promise<number | undefined> => {
      const reply = (await (await fetch(`${promBase}/api/v1/query?query=${encodeURIComponent(expr)}`)).json()) as {
        data: { result: { value: [number, string] }[] };
      };
      const first = reply.data.result[0];
      return first ? Number(first.value[1]) : undefined;
    };
    const equals = (expr: string, expected: number) => async () => ((await query(expr)) === expected ? expected : undefined);

    expect(await eventually('a successful scrape with the token', equals('up{job="agentwatch"}', 1))).toBe(1);
    expect(await eventually('the thinking session', equals('agentwatch_sessions{agent="claude",activity="thinking"}', 1))).toBe(1);
    expect(await eventually('the monitor to have read the whole history', equals('agentwatch_ready', 1))).toBe(1);

    await appendFile(
      transcript,
      line({
        type: 'assistant',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'Write', input: { file_path: '/home/dev/fleet/view.ts', content: 'x' } }],
          usage: { input_tokens: 50, output_tokens: 70 },
        },
        timestamp: new Date().toISOString(),
      }),
    );
    expect(await eventually('the transition to writing', equals('agentwatch_transitions_total{agent="claude",from="thinking",to="writing"}', 1))).toBe(1);
    expect(await eventually('the new output tokens', equals('sum(agentwatch_tokens_total{agent="claude",kind="output"})', 70))).toBe(70);
    expect(await query('agentwatch_sessions{agent="claude",activity="writing"}')).toBe(1);
  }, 90_000);
});
