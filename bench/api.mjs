// HTTP API cost, measured on the built code (npm run build first), loopback only, bounded:
//  1. GET /api/sessions with 1000 sessions: requests/s and latency percentiles, against a bare
//     Fastify route answering the same summaries in the same run (the difference is what auth,
//     host check, query parsing and the summary projection cost);
//  2. SSE fan-out to 100 clients: time from a change in the server to each client holding the
//     complete `update` frame, against a bare Fastify SSE route that writes one shared frame.
// The servers run in a child process so the load generator does not share their event loop.
// Usage: node bench/api.mjs [sessions=1000] [clients=100] [seconds=3]
import { saveResult } from './util.mjs';
import { fork } from 'node:child_process';
import http from 'node:http';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const serving = process.argv[2] === '--serve';
const args = process.argv.slice(serving ? 3 : 2);
const SESSIONS = Number(args[0] ?? 1000);
const CLIENTS = Number(args[1] ?? 100);
const SECONDS = Number(args[2] ?? 3);
const CONNECTIONS = 8;
const CHANGES = 15;
const wallClock = () => performance.timeOrigin + performance.now();

const detail = (i, model = 'claude-sonnet-4-5') => ({
  session_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  agent: ['claude', 'codex', 'pi', 'amp'][i % 4],
  cwd: `/home/dev/project-${i % 50}/service-${i}`,
  short_name: `service-${i}`,
  agent_name: i % 3 === 0 ? `Task number ${i}` : '',
  custom_name: '',
  source: 'cli',
  activity: ['idle', 'waiting', 'thinking', 'writing'][i % 4],
  is_active: i % 4 >= 2,
  model,
  git_branch: 'main',
  cost_usd: i / 100,
  last_activity: new Date(1_790_000_000_000 - i * 1000).toISOString(),
  total_messages: i % 40,
  version: '2.0.31',
  is_worktree: false,
  main_repo: '',
  input_tokens: i * 10,
  output_tokens: i * 20,
  cache_creation_tokens: 0,
  cache_read_tokens: 0,
  user_messages: i % 20,
  assistant_messages: i % 20,
  current_tool: '',
  last_file_write: '',
  last_file_write_at: '',
  recent_tools: [],
  recent_messages: [],
  resume_command: `claude --resume ${i}`,
});

// ---------------------------------------------------------------- server side (child process)
const serve = async () => {
  const Fastify = (await import('fastify')).default;
  const { BehaviorSubject } = await import('rxjs');
  const { buildServer } = await import('../dist/sinks/http/server.js');
  const { createSessionStore, summaryOf } = await import('../dist/sinks/http/store.js');
  const { deriveToken } = await import('../dist/sinks/http/token.js');
  const { toEffective } = await import('../dist/config/effective.js');
  const { configSchema } = await import('../dist/config/schema.js');

  const viewsAt = (seq) => {
    const visible = Array.from({ length: SESSIONS }, (_, i) => detail(i, i === 0 ? `m-${seq}` : undefined));
    return { visible, lookup: (id) => visible.find((s) => s.session_id === id), windowMinutes: 30 };
  };
  const views$ = new BehaviorSubject(viewsAt(0));
  const store = createSessionStore({ views$, names: {}, saveName: async () => ({}) });
  const config = toEffective(configSchema.parse({ api_salt: 'bench-salt' }), {}).config;
  const token = await deriveToken('bench passphrase', 'bench-salt');
  const app = await buildServer({ store, token, salt: 'bench-salt', config: () => config, allowedHosts: ['127.0.0.1', 'localhost'] });
  await app.listen({ host: '127.0.0.1', port: 0 });

  // The bare baseline: the same summaries, no auth, no hooks, one shared SSE frame per change.
  let summaries = store.current().sessions.map(summaryOf);
  const sseClients = new Set();
  const bare = Fastify({ logger: false });
  bare.get('/bare/sessions', async () => summaries);
  // The issue-11 anchor: the same bytes serialised once, sent as they are.
  const bytes = JSON.stringify(summaries);
  bare.get('/bare/bytes', (_request, reply) => reply.type('application/json; charset=utf-8').send(bytes));
  bare.get('/bare/events', (request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
    reply.raw.write(': open\n\n');
    sseClients.add(reply.raw);
    request.raw.on('close', () => sseClients.delete(reply.raw));
  });
  bare.addHook('preClose', (done) => {
    for (const res of sseClients) res.end();
    done();
  });
  await bare.listen({ host: '127.0.0.1', port: 0 });

  process.on('message', (message) => {
    if (message.type === 'change') {
      const at = wallClock();
      views$.next(viewsAt(message.seq));
      summaries = store.current().sessions.map(summaryOf);
      if (message.target === 'bare') {
        const frame = `event: update\ndata: ${JSON.stringify({ sessions: summaries, stats: store.current().stats })}\n\n`;
        for (const res of sseClients) res.write(frame);
      }
      process.send({ type: 'changed', seq: message.seq, at });
    } else if (message.type === 'stop') {
      void Promise.all([app.close(), bare.close()]).then(() => process.exit(0));
    }
  });
  process.send({ type: 'ready', api: app.server.address().port, bare: bare.server.address().port, token, rss: process.memoryUsage().rss });
};

// ---------------------------------------------------------------- client side
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const fmt = (ms) => `${ms.toFixed(2)} ms`;

const load = async (url, headers) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies = [];
  let bytes = 0;
  let failures = 0;
  const deadline = performance.now() + SECONDS * 1000;
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
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), kb: bytes / latencies.length / 1024, failures };
};

/** Connects `CLIENTS` SSE clients; resolves once every stream is open. */
const connectSse = async (url, headers) => {
  const arrivals = new Map(); // seq -> receive times
  let open = 0;
  const requests = [];
  await new Promise((resolve, reject) => {
    for (let c = 0; c < CLIENTS; c++) {
      let buffer = '';
      const req = http.get(url, { headers }, (res) => {
        if (++open === CLIENTS) resolve();
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) !== -1) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (!frame.startsWith('event: update')) continue;
            const seq = Number(/"model":"m-(\d+)"/.exec(frame)?.[1]);
            const times = arrivals.get(seq) ?? [];
            times.push(wallClock());
            arrivals.set(seq, times);
          }
        });
      });
      req.on('error', reject);
      requests.push(req);
    }
  });
  return { arrivals, close: () => requests.forEach((req) => req.destroy()) };
};

const fanOut = async (child, target, url, headers) => {
  const sse = await connectSse(url, headers);
  // Past the first throttle window opened by the connect snapshot.
  await sleep(300);
  const sent = new Map();
  // Distinct sequence numbers per target: a client's connect snapshot never counts as an update.
  const first = target === 'bare' ? 1 : 1001;
  for (let seq = first; seq < first + CHANGES; seq++) {
    child.send({ type: 'change', seq, target });
    const [reply] = await once(child, 'message');
    sent.set(seq, reply.at);
    // Wait until every client has this update (bounded), then space changes past the 250 ms throttle.
    const until = performance.now() + 5000;
    while ((sse.arrivals.get(seq)?.length ?? 0) < CLIENTS && performance.now() < until) await sleep(5);
    await sleep(300);
  }
  sse.close();
  const delays = [];
  let missing = 0;
  for (const [seq, at] of sent) {
    const times = sse.arrivals.get(seq) ?? [];
    missing += CLIENTS - times.length;
    for (const t of times) delays.push(t - at);
  }
  delays.sort((a, b) => a - b);
  return { p50: percentile(delays, 50), p99: percentile(delays, 99), max: delays.at(-1) ?? NaN, missing };
};

const main = async () => {
  const child = fork(fileURLToPath(import.meta.url), ['--serve', ...args], { stdio: 'inherit' });
  const [ready] = await once(child, 'message');
  const auth = { authorization: `Bearer ${ready.token}` };
  const api = `http://127.0.0.1:${ready.api}`;
  const bare = `http://127.0.0.1:${ready.bare}`;
  console.log(`API bench: ${SESSIONS} sessions, ${CONNECTIONS} keep-alive connections for ${SECONDS} s per route, ${CLIENTS} SSE clients x ${CHANGES} changes`);

  await load(`${api}/api/sessions`, auth); // warm-up (JIT), not reported
  const bareList = await load(`${bare}/bare/sessions`, {});
  const bareBytes = await load(`${bare}/bare/bytes`, {});
  const apiList = await load(`${api}/api/sessions`, auth);
  const row = (name, r) =>
    `  ${name.padEnd(22)} ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${fmt(r.p50).padStart(10)}   p99 ${fmt(r.p99).padStart(10)}   ${r.kb.toFixed(0)} KiB/response${r.failures ? `   ${r.failures} failed` : ''}`;
  console.log('GET sessions list');
  console.log(row('bare Fastify route', bareList));
  console.log(row('bare route, pre-serialised', bareBytes));
  console.log(row('GET /api/sessions', apiList));
  console.log(`  GET /api/sessions = ${(apiList.rps / bareBytes.rps).toFixed(2)}x the pre-serialised bare route, ${(apiList.rps / bareList.rps).toFixed(2)}x the serialising one`);

  const bareSse = await fanOut(child, 'bare', `${bare}/bare/events`, {});
  const apiSse = await fanOut(child, 'api', `${api}/api/events`, auth);
  const sseRow = (name, r) =>
    `  ${name.padEnd(22)} p50 ${fmt(r.p50).padStart(10)}   p99 ${fmt(r.p99).padStart(10)}   max ${fmt(r.max).padStart(10)}${r.missing ? `   ${r.missing} updates missing` : ''}`;
  console.log(`SSE fan-out (change -> complete update frame at each of ${CLIENTS} clients)`);
  console.log(sseRow('bare Fastify SSE', bareSse));
  console.log(sseRow('GET /api/events', apiSse));
  const figures = { sessions: SESSIONS, list_rps: apiList.rps, list_p99_ms: apiList.p99, list_vs_preserialised: apiList.rps / bareBytes.rps, sse_p99_ms: apiSse.p99 };
  const anchors = { preserialised_rps: bareBytes.rps, serialising_rps: bareList.rps, bare_sse_p99_ms: bareSse.p99 };
  console.log(`  saved to ${saveResult('api', { figures, anchors })}`);
  console.log(JSON.stringify({ name: 'api', figures, anchors }));

  child.send({ type: 'stop' });
  await once(child, 'exit');
};

if (serving) {
  await serve();
} else {
  await main();
}
