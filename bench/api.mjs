/**
 * `GET /api/sessions` throughput: the running `agentwatch --api` on a corpus (7-day
 * window), against a bare Fastify route and a bare `node:http` route in other processes sending
 * the same bytes (fetched from the API once, so all answer with identical bodies), measured in the same run: keep-alive
 * connections request as fast as they can for S seconds per round, rounds alternate between the
 * two servers, and the median round counts. The ratio is what auth, the host check, the query
 * parsing and the listing refresh cost next to sending pre-serialised bytes.
 *
 *   node bench/api.mjs [--corpus DIR | --sessions N] [--seconds S (3)] [--rounds R (3)] [--connections C (8)]
 *
 * Prints a table, then one JSON object as the last line: { name, figures, anchors }.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Buffer } from 'node:buffer';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { CLOCK_TICKS, corpusEnv, procCpuTicks, resolveCorpus, startMonitor, warmCache } from './monitor-run.mjs';
import { arg, median, percentile, saveResult, sleep } from './util.mjs';

const seconds = arg('seconds', 3);
const rounds = arg('rounds', 3);
const connections = arg('connections', 8);
const corpus = resolveCorpus('api');
const env = corpusEnv(corpus, 'api');

/**
 * Requests `url` on `connections` keep-alive sockets for `seconds`; requests/s, latency, and the
 * server's CPU per request (process `pid`): the client shares the machine, so requests/s can
 * measure the client as much as the server, while CPU per request is the server's own cost.
 */
const load = async (url, headers, pid) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies = [];
  let bytes = 0;
  let failures = 0;
  const deadline = performance.now() + seconds * 1000;
  const one = () =>
    new Promise((resolve) => {
      const start = performance.now();
      http
        .get(url, { agent, headers }, (res) => {
          res.on('data', (chunk) => (bytes += chunk.length));
          res.on('end', () => {
            if (res.statusCode !== 200) failures += 1;
            latencies.push(performance.now() - start);
            resolve();
          });
        })
        .on('error', () => {
          failures += 1;
          resolve();
        });
    });
  const worker = async () => {
    while (performance.now() < deadline) await one();
  };
  const started = performance.now();
  const ticks = procCpuTicks(pid);
  await Promise.all(Array.from({ length: connections }, worker));
  const cpuUs = ((procCpuTicks(pid) - ticks) / CLOCK_TICKS) * 1e6;
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return {
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    kib: bytes / Math.max(1, latencies.length) / 1024,
    cpuUsPerRequest: cpuUs / Math.max(1, latencies.length),
    failures,
  };
};

/**
 * A bare server in its own process, answering one route with the bytes of `file`: a Fastify route,
 * or (`node`) a `node:http` handler with nothing between the socket and the bytes.
 */
const startBare = async (file, kind = 'fastify') => {
  const script =
    kind === 'node'
      ? `
    import http from 'node:http';
    import { readFileSync } from 'node:fs';
    const bytes = readFileSync(${JSON.stringify(file)});
    const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(bytes.length) };
    const server = http.createServer((request, response) => {
      if (request.url !== '/bare/sessions') return void response.writeHead(404).end();
      response.writeHead(200, headers);
      response.end(bytes);
    });
    server.listen(0, '127.0.0.1', () => process.stderr.write('listening ' + server.address().port + '\\n'));`
      : `
    import Fastify from 'fastify';
    import { readFileSync } from 'node:fs';
    const bytes = readFileSync(${JSON.stringify(file)});
    const app = Fastify({ logger: false });
    app.get('/bare/sessions', (_request, reply) => reply.type('application/json; charset=utf-8').send(bytes));
    await app.listen({ host: '127.0.0.1', port: 0 });
    process.stderr.write('listening ' + app.server.address().port + '\\n');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: path.join(path.dirname(fileURLToPath(import.meta.url)), '..'), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  let port;
  while (!(port = /listening (\d+)/.exec(stderr)?.[1])) {
    if (child.exitCode !== null) throw new Error(`bare server exited: ${stderr}`);
    await sleep(20);
  }
  return { url: `http://127.0.0.1:${port}/bare/sessions`, pid: child.pid, stop: () => child.kill('SIGTERM') };
};

warmCache(env);
const monitor = await startMonitor(env);
let bare;
let node;
try {
  const stats = await monitor.ready();
  const body = Buffer.from(await (await fetch(`${monitor.base}/api/sessions`, { headers: monitor.headers })).arrayBuffer());
  const file = path.join(tmpdir(), `agentwatch-bench-api-${process.pid}.json`);
  writeFileSync(file, body);
  bare = await startBare(file);
  node = await startBare(file, 'node');
  for (const server of [bare, node]) {
    const check = Buffer.from(await (await fetch(server.url)).arrayBuffer());
    if (!check.equals(body)) throw new Error('the bare route does not send the same bytes');
  }
  const apiUrl = `${monitor.base}/api/sessions`;
  // Warm-up (JIT) on both, not counted.
  const apiPid = monitor.child.pid;
  await load(apiUrl, monitor.headers, apiPid);
  await load(bare.url, {}, bare.pid);
  await load(node.url, {}, node.pid);
  const apiRounds = [];
  const bareRounds = [];
  const nodeRounds = [];
  for (let round = 0; round < rounds; round += 1) {
    bareRounds.push(await load(bare.url, {}, bare.pid));
    nodeRounds.push(await load(node.url, {}, node.pid));
    apiRounds.push(await load(apiUrl, monitor.headers, apiPid));
  }
  const medianRound = (results) => [...results].sort((a, b) => a.rps - b.rps)[Math.floor((results.length - 1) / 2)];
  const api = medianRound(apiRounds);
  const anchor = medianRound(bareRounds);
  const nodeAnchor = medianRound(nodeRounds);
  const ratio = api.rps / anchor.rps;
  const nodeRatio = api.rps / nodeAnchor.rps;
  // Server CPU per request, median over the rounds (the anchor's over its own rounds).
  const cpuOf = (results) => median(results.map((r) => r.cpuUsPerRequest));
  const cpuRatio = cpuOf(apiRounds) / cpuOf(bareRounds);
  const row = (name, r) =>
    `  ${name.padEnd(34)} ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${r.p50.toFixed(2).padStart(7)} ms   p99 ${r.p99.toFixed(2).padStart(7)} ms   ${r.kib.toFixed(0)} KiB   server CPU ${r.cpuUsPerRequest.toFixed(0).padStart(4)} µs/request${r.failures ? `   ${r.failures} failed` : ''}`;
  console.log(`GET /api/sessions, ${stats.total_sessions} sessions listed (${(body.length / 1024).toFixed(0)} KiB), ${connections} keep-alive connections, median of ${rounds} x ${seconds} s`);
  console.log(row('bare Fastify route, same bytes', anchor));
  console.log(row('bare node:http route, same bytes', nodeAnchor));
  console.log(row('agentwatch GET /api/sessions', api));
  console.log(`  ratio ${nodeRatio.toFixed(2)}x the bare node:http route (rounds: ${apiRounds.map((r, i) => (r.rps / (nodeRounds[i]?.rps ?? NaN)).toFixed(2)).join(', ')})`);
  console.log(`  ratio ${ratio.toFixed(2)}x the bare route (rounds: ${apiRounds.map((r, i) => (r.rps / (bareRounds[i]?.rps ?? NaN)).toFixed(2)).join(', ')})`);
  console.log(`  server CPU per request ${cpuRatio.toFixed(2)}x the bare route's (median of rounds: ${cpuOf(apiRounds).toFixed(0)} vs ${cpuOf(bareRounds).toFixed(0)} µs)`);
  // A Prometheus scrape of the same server (it looks at every session): CPU per scrape, one
  // connection, against GET /api/sessions on the same server (which sends every listed session).
  const scrapes = [];
  for (let round = 0; round < rounds; round += 1) {
    const ticks = procCpuTicks(apiPid);
    const n = 20;
    for (let i = 0; i < n; i += 1) await (await fetch(`${monitor.base}/metrics`, { headers: monitor.headers })).text();
    scrapes.push(((procCpuTicks(apiPid) - ticks) / CLOCK_TICKS) * 1e6 / n);
  }
  const scrapeUs = median(scrapes);
  console.log(`  GET /metrics (a Prometheus scrape): server CPU ${(scrapeUs / 1000).toFixed(1)} ms per scrape (median of ${rounds} x 20), ${(scrapeUs / cpuOf(apiRounds)).toFixed(1)}x a GET /api/sessions`);
  const round3 = (r) => ({ rps: Math.round(r.rps), p50Ms: +r.p50.toFixed(2), p99Ms: +r.p99.toFixed(2), kib: Math.round(r.kib), cpuUsPerRequest: Math.round(r.cpuUsPerRequest), failures: r.failures });
  const figures = {
    ...round3(api),
    list_rps: api.rps,
    list_vs_preserialised: +ratio.toFixed(3),
    list_vs_node_http: +nodeRatio.toFixed(3),
    cpu_per_request_vs_node_http: +(cpuOf(apiRounds) / cpuOf(nodeRounds)).toFixed(3),
    cpu_per_request_vs_preserialised: +cpuRatio.toFixed(3),
    sessions: stats.total_sessions,
    body_kib: Math.round(body.length / 1024),
    metrics_scrape_cpu_us: Math.round(scrapeUs),
    metrics_scrape_vs_list_cpu: +(scrapeUs / cpuOf(apiRounds)).toFixed(2),
  };
  const anchors = { preserialised_rps: anchor.rps, node_http_rps: nodeAnchor.rps, 'bare Fastify route, same bytes': round3(anchor), 'bare node:http route, same bytes': round3(nodeAnchor) };
  console.log(`  saved to ${saveResult('api', { figures, anchors })}`);
  console.log(JSON.stringify({ name: 'api', figures, anchors }));
} finally {
  bare?.stop();
  node?.stop();
  await monitor.stop();
}
