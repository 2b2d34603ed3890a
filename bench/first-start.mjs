/**
 * A monitor's first start against the one-shot cold listing, on the same generated corpus in the
 * same run: `agentwatch --api` with no discovery cache and no search index, timed from its spawn
 * to `ready` in `/api/stats` and to the first search answered from a complete index (no
 * `agentwatch-indexing` header), next to `agentwatch sessions --all --json` with no discovery
 * cache (the same files read by the same sources, nothing indexed). Runs alternate between the
 * two (each round sees the same machine); medians are reported. Beside the wall times, the CPU
 * each used until then (user + system), which a loaded machine moves less.
 *
 *   node bench/first-start.mjs [--sessions N (2000)] [--runs R (3)] [--cli FILE] [--base FILE]
 *
 * `--base FILE`: another build's `cli.js`, measured in the same rounds (a before/after).
 * Needs `npm run build`. The last line of stdout is the JSON summary.
 */
import { spawn, spawnSync } from 'node:child_process';
import { pbkdf2Sync } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ensureCorpus, refreshCursor } from './corpus.mjs';
import { homeEnv } from './corpus-agents.mjs';
import { CLOCK_TICKS, procCpuTicks } from './monitor-run.mjs';
import { arg, median, saveResult, sleep } from './util.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const stringArg = (name, fallback) => (process.argv.includes(`--${name}`) ? path.resolve(process.argv[process.argv.indexOf(`--${name}`) + 1]) : fallback);
const cli = stringArg('cli', path.join(here, '..', 'dist', 'cli.js'));
const base = stringArg('base', undefined);
const sessions = arg('sessions', 2000);
const runs = Math.max(1, arg('runs', 3));
const root = path.join(here, `.corpus-startup-${sessions}`);
const corpus = ensureCorpus({ root, sessions, meanKb: 70 });
refreshCursor(corpus);

const SALT = 'first-start-bench-salt';
const PASSPHRASE = 'first start bench passphrase';
const token = pbkdf2Sync(PASSPHRASE, SALT, 600_000, 32, 'sha256').toString('base64url');
const env = { ...homeEnv(corpus.home, path.join(root, 'xdg-cache')), CLAUDE_CONFIG_DIR: path.join(corpus.home, '.claude'), TZ: 'UTC' };
const cacheDir = path.join(env.XDG_CACHE_HOME, 'agentwatch');
mkdirSync(path.join(env.XDG_CONFIG_HOME, 'agentwatch'), { recursive: true });
writeFileSync(path.join(env.XDG_CONFIG_HOME, 'agentwatch', 'config.json'), JSON.stringify({ window_minutes: 10080, api_salt: SALT }));
const dropCache = () => rmSync(cacheDir, { recursive: true, force: true });

const coldListing = (command) => {
  dropCache();
  const started = performance.now();
  const result = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, command, 'sessions', '--all', '--json'], { env, cwd: env.HOME, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`sessions exited ${result.status}: ${result.stderr.slice(-2000)}`);
  const [user, system] = result.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { ms: performance.now() - started, cpuMs: (user + system) * 1000 };
};

/** Spawn to `ready`, and spawn to a search answered from a complete index, of a first start. */
const firstStart = async (command) => {
  dropCache();
  const started = performance.now();
  const child = spawn(process.execPath, [command, '--api', '--host', '127.0.0.1:0'], { env: { ...env, AGENTWATCH_API_PASSPHRASE: PASSPHRASE }, cwd: env.HOME, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  try {
    let url;
    while (!(url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1])) {
      if (child.exitCode !== null) throw new Error(`agentwatch --api exited ${child.exitCode}: ${stderr}`);
      await sleep(5);
    }
    const headers = { authorization: `Bearer ${token}` };
    for (;;) {
      const stats = await (await fetch(`${url}/api/stats`, { headers })).json();
      if (stats.ready === true) break;
      await sleep(20);
    }
    const readyMs = performance.now() - started;
    const readyCpuMs = (procCpuTicks(child.pid) / CLOCK_TICKS) * 1000;
    for (;;) {
      const answer = await fetch(`${url}/api/search?q=refactor`, { headers });
      await answer.arrayBuffer();
      if (answer.status === 200 && answer.headers.get('agentwatch-indexing') === null) break;
    }
    return { readyMs, readyCpuMs, indexedMs: performance.now() - started };
  } finally {
    child.kill('SIGINT');
    await exited;
  }
};

const builds = base ? { after: cli, before: base } : { after: cli };
const samples = Object.fromEntries(Object.keys(builds).map((name) => [name, { cold: [], coldCpu: [], ready: [], readyCpu: [], indexed: [] }]));
for (let round = 0; round < runs; round += 1) {
  for (const [name, command] of Object.entries(builds)) {
    const cold = coldListing(command);
    samples[name].cold.push(cold.ms);
    samples[name].coldCpu.push(cold.cpuMs);
    const start = await firstStart(command);
    samples[name].ready.push(start.readyMs);
    samples[name].readyCpu.push(start.readyCpuMs);
    samples[name].indexed.push(start.indexedMs);
  }
}

const figures = {};
console.log(`corpus: ${corpus.files} files, ${Math.round(corpus.bytes / 2 ** 20)} MiB; medians of ${runs} rounds, builds in turns`);
for (const [name, s] of Object.entries(samples)) {
  const cold = median(s.cold);
  const ready = median(s.ready);
  const indexed = median(s.indexed);
  const coldCpu = median(s.coldCpu);
  const readyCpu = median(s.readyCpu);
  figures[name] = {
    cold_listing_ms: Math.round(cold),
    cold_listing_cpu_ms: Math.round(coldCpu),
    api_first_start_ready_ms: Math.round(ready),
    api_first_start_ready_cpu_ms: Math.round(readyCpu),
    api_first_start_indexed_ms: Math.round(indexed),
    ready_vs_cold_listing: +(ready / cold).toFixed(2),
    ready_cpu_vs_cold_listing_cpu: +(readyCpu / coldCpu).toFixed(2),
  };
  console.log(`  ${name.padEnd(6)} cold listing ${cold.toFixed(0)} ms (CPU ${coldCpu.toFixed(0)} ms); --api first start: ready ${ready.toFixed(0)} ms (${(ready / cold).toFixed(2)}x; CPU ${readyCpu.toFixed(0)} ms, ${(readyCpu / coldCpu).toFixed(2)}x), search complete ${indexed.toFixed(0)} ms (${(indexed / cold).toFixed(2)}x)`);
}
const result = { name: 'first-start', figures, anchors: { cold_listing_ms: figures.after.cold_listing_ms } };
console.log(`  saved to ${saveResult('first-start', result)}`);
console.log(JSON.stringify(result));
