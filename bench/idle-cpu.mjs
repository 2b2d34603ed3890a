/**
 * Idle cost of `agentwatch --api`: CPU % and RSS of the running process over a quiet
 * period on a generated corpus with a 7-day window, next to anchors
 * measured in the same run on the same files: chokidar alone watching the same trees, and, when
 * BENCH_BASE_CLI names another build's dist/cli.js (e.g. the wave-1 build), that build.
 *
 *   node bench/idle-cpu.mjs [--sessions N] [--seconds S] [--settle S] [--starts N]
 *
 * The window is 7 days (the config's maximum), as in the target. CPU is measured in two windows: the `--settle` seconds (default 60) right after the
 * first discovery (the garbage collector cleans up after it, a cost paid once per start), then
 * `--seconds` of steady idle, the cost of a monitor that runs all day.
 *
 * The main run starts with a discovery cache (`sessions` run first), as a user's monitor usually
 * does; one more run starts without one (cache and search index removed), the first start on a
 * machine, and is reported beside it.
 *
 * How soon the API answers: `--starts` (default 5) more starts of `--api` on the same corpus, each
 * timed from spawn to the first `GET /api/auth` answer, median; the anchor is a bare node:http
 * server spawned and asked the same way (what node's own start and the polling cost).
 *
 * Prints a table, then one JSON object as the last line (bench/run.mjs collects it).
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { idleCorpus, statsWhenReady, warmCache } from './monitor-run.mjs';
import { arg, saveResult, sleep } from './util.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const sessions = arg('sessions', 3000);
const seconds = arg('seconds', 60);
const settle = arg('settle', 60);
const starts = arg('starts', 5);
const { corpus, env, token } = idleCorpus({ sessions });
const TICK = 100; // USER_HZ on Linux

const cpuTicks = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const rssMiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Starts `args`, waits for `isReady`, lets it settle, then measures CPU and RSS over `seconds`. */
const idleOf = async (label, args, isReady, inspect = async () => ({})) => {
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const started = Date.now();
  const exited = new Promise((_, reject) => child.on('exit', (code) => reject(new Error(`${label} exited (${code}) before it was ready:\n${stderr}`))));
  exited.catch(() => undefined);
  try {
    await Promise.race([isReady(() => stderr), exited]);
    const readyMs = Date.now() - started;
    // Two windows: the settling right after the first discovery (the garbage collector cleans up
    // after it: a cost paid once per start), then the steady idle an all-day monitor costs.
    const t0 = cpuTicks(child.pid);
    await sleep(settle * 1000);
    const t1 = cpuTicks(child.pid);
    await sleep(seconds * 1000);
    const used = cpuTicks(child.pid) - t1;
    const rss = rssMiB(child.pid);
    return { label, cpuPercent: (used / TICK / seconds) * 100, settlingCpuPercent: ((t1 - t0) / TICK / settle) * 100, rssMiB: rss, readyMs, ...(await inspect()) };
  } finally {
    child.kill('SIGTERM');
  }
};

let listedNow = 0;
let apiBase;
/** Where the memory goes, from the monitor's own /metrics (V8 heap, buffers outside it), read after the CPU window. */
const apiMemory = async () => {
  const text = await fetch(`${apiBase}/metrics`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.text()).catch(() => '');
  const mib = (metric) => Number(new RegExp(`^${metric} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN) / 2 ** 20;
  return { heapUsedMiB: mib('nodejs_heap_size_used_bytes'), heapTotalMiB: mib('nodejs_heap_size_total_bytes'), externalMiB: mib('nodejs_external_memory_bytes') };
};
/** Polls stderr for the listening line, then GET /api/auth until it answers; the base URL. */
const firstAnswer = async (stderr) => {
  let base;
  while (!(base = /listening on (http:\/\/\S+)/.exec(stderr())?.[1])) await sleep(5);
  while (!(await fetch(`${base}/api/auth`).then((r) => r.ok).catch(() => false))) await sleep(5);
  return base;
};
/** From spawn to the first `GET /api/auth` answer (the server listens before discovery ends), in the idle run. */
let firstAnswerInRunMs = 0;
const apiReady = async (stderr) => {
  const spawned = Date.now();
  const base = await firstAnswer(stderr);
  apiBase = base;
  firstAnswerInRunMs = Date.now() - spawned;
  listedNow = (await statsWhenReady(base, token)).total_sessions;
};

const roots = [path.join(corpus.home, '.claude', 'projects'), path.join(corpus.home, '.codex', 'sessions'), path.join(corpus.home, '.pi', 'agent', 'sessions')];
const chokidarOnly = `import('chokidar').then(({ watch }) => { const w = watch(${JSON.stringify(roots)}, { ignoreInitial: true, depth: 5 }); w.on('ready', () => process.stderr.write('watching\\n')); })`;

/** Spawns `args` `starts` times; each time from spawn to the first /api/auth answer, then SIGTERM. */
const firstAnswers = async (args) => {
  const times = [];
  for (let i = 0; i < starts; i += 1) {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const spawned = Date.now();
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await Promise.race([firstAnswer(() => stderr), exited.then(() => Promise.reject(new Error(`${args.join(' ')} exited: ${stderr}`)))]);
    times.push(Date.now() - spawned);
    child.kill('SIGTERM');
    await exited;
  }
  return times;
};

// The first fetch of this process loads its HTTP client (~35 ms): done here, so the starts time the server, not the client.
{
  const { createServer } = await import('node:http');
  const server = createServer((_request, response) => response.end());
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  await fetch(`http://127.0.0.1:${server.address().port}/`).then((r) => r.text());
  server.close();
}

const results = [];
const apiArgs = [path.join(here, '..', 'dist', 'cli.js'), '--api', '--host', '127.0.0.1:0'];
// The main figure is a warm start, as a user's usually is (a discovery cache from an earlier run);
// the first start on a machine, without one, is measured apart: it keeps more (see below).
warmCache(env);
results.push(await idleOf('agentwatch --api (this build)', apiArgs, apiReady, apiMemory));
const warmRun = { listed: listedNow, firstAnswerInRunMs };
rmSync(env.XDG_CACHE_HOME, { recursive: true, force: true });
const coldStart = await idleOf('agentwatch --api, first start (no cache, no search index)', apiArgs, apiReady, apiMemory);
if (process.env.BENCH_BASE_CLI) results.push(await idleOf('agentwatch --api (BENCH_BASE_CLI)', [process.env.BENCH_BASE_CLI, '--api', '--host', '127.0.0.1:0'], apiReady));
results.push(
  await idleOf('chokidar alone, same trees', ['--input-type=module', '-e', chokidarOnly], async (stderr) => {
    while (!stderr().includes('watching')) await sleep(50);
  }),
);

// The cache is warm now (as a user's usually is); the bare server answers /api/auth like any path.
const bareHttp = `const s = require('node:http').createServer((q, r) => r.end('{}')); s.listen(0, '127.0.0.1', () => process.stderr.write('listening on http://127.0.0.1:' + s.address().port + ' \\n'));`;
const startTimes = await firstAnswers([path.join(here, '..', 'dist', 'cli.js'), '--api', '--host', '127.0.0.1:0']);
const bareTimes = await firstAnswers(['-e', bareHttp]);
const medianOf = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const firstAnswerMs = medianOf(startTimes);
const bareFirstAnswerMs = medianOf(bareTimes);

const files = corpus.files;
console.log(`Idle ${seconds} s after ${settle} s of settling; ${files} files watched, ${warmRun.listed} sessions listed in the 7-day window`);
for (const r of results) console.log(`  ${r.label.padEnd(36)} CPU ${r.cpuPercent.toFixed(2).padStart(6)} % steady, ${r.settlingCpuPercent.toFixed(2).padStart(6)} % while settling   RSS ${r.rssMiB.toFixed(0).padStart(5)} MiB   ready after ${r.readyMs} ms`);
const api = results[0];
const perThousand = (mib, n) => (n > 0 ? (mib / n) * 1000 : Number.NaN);
console.log(
  `  started without a cache: CPU ${coldStart.cpuPercent.toFixed(2)} % steady, ${coldStart.settlingCpuPercent.toFixed(2)} % while settling; RSS ${coldStart.rssMiB.toFixed(0)} MiB (V8 heap ${coldStart.heapUsedMiB.toFixed(0)} MiB used); ready after ${coldStart.readyMs} ms`,
);
console.log(
  `  memory of --api: RSS ${api.rssMiB.toFixed(0)} MiB = V8 heap ${api.heapTotalMiB.toFixed(0)} MiB reserved (${api.heapUsedMiB.toFixed(0)} used) + ${api.externalMiB.toFixed(1)} MiB buffers + the rest (code, SQLite caches, allocator); ` +
    `per 1,000 files watched: RSS ${perThousand(api.rssMiB, files).toFixed(1)} MiB, heap used ${perThousand(api.heapUsedMiB, files).toFixed(1)} MiB; over chokidar alone: ${(api.rssMiB - results.at(-1).rssMiB).toFixed(0)} MiB`,
);
console.log(
  `  the API answered ${firstAnswerMs} ms after the process was started (median of ${starts} starts: ${startTimes.join(', ')} ms; ` +
    `a bare node:http server spawned and asked the same way: ${bareFirstAnswerMs} ms; in the idle run: ${warmRun.firstAnswerInRunMs} ms, discovery completed after ${results[0].readyMs} ms)`,
);
const result = {
  figures: {
    ...results[0],
    rssPer1000FilesMiB: perThousand(api.rssMiB, files),
    heapUsedPer1000FilesMiB: perThousand(api.heapUsedMiB, files),
    files,
    listed: warmRun.listed,
    seconds,
    settle,
    firstAnswerMs,
    firstAnswerStartsMs: startTimes,
    firstAnswerInRunMs: warmRun.firstAnswerInRunMs,
    coldStart,
  },
  anchors: { ...Object.fromEntries(results.slice(1).map((r) => [r.label, r])), 'bare node:http server, first answer': { firstAnswerMs: bareFirstAnswerMs, startsMs: bareTimes } },
};
console.log(`  saved to ${saveResult('idle-cpu', result)}`);
console.log(JSON.stringify({ name: 'idle-cpu', ...result }));
