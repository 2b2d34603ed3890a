// Webhook sink cost, measured on the built code (npm run build first):
//  1. what accepting one transition costs the pipeline (Subject.next -> durable queue insert) with
//     receivers that hang: the sink never makes the producer wait, whatever the receivers do.
//     Baseline in the same run: the same sink over an in-memory SQLite queue (no file, no WAL).
//  2. end-to-end deliveries per second to a real loopback receiver (signed, got, 4 in flight).
// Usage: node bench/webhooks.mjs [transitions]
// The last stdout line is one JSON object { name, figures, anchors }.
import { createServer } from 'node:http';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { asyncScheduler, Subject } from 'rxjs';
import { toEffective } from '../dist/config/effective.js';
import { configSchema } from '../dist/config/schema.js';
import { openDeliveryStore } from '../dist/sinks/webhook/delivery-store.js';
import { startWebhooks } from '../dist/sinks/webhook/index.js';

const N = Number(process.argv.find((a, i) => i > 1 && /^\d+$/.test(a)) ?? 20_000);
const root = mkdtempSync(path.join(tmpdir(), 'aw-bench-webhooks-'));
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const ctxFor = (webhooks) => ({
  config: toEffective(configSchema.parse({ webhooks }), {}).config,
  env: { HOME: path.join(root, 'home'), XDG_CACHE_HOME: path.join(root, `cache-${Math.random().toString(36).slice(2)}`) },
  scheduler: asyncScheduler,
  now: () => Date.now(),
  platform: process.platform,
  log: quiet,
});
const transition = (i) => ({ agent: 'claude', sessionId: `s${i}`, from: 'thinking', to: 'waiting', at: Date.now(), cwd: '/w/p', isSidechain: false });

const held = [];
let answered = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    if (req.url === '/hang') held.push(res);
    else {
      answered += 1;
      res.writeHead(204).end();
    }
  });
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const base = `http://127.0.0.1:${server.address().port}`;

const pushCost = async (memory) => {
  const hooks = Array.from({ length: 5 }, (_, i) => ({ name: `hang${i}`, url: `${base}/hang`, secret: 'k' }));
  const input = new Subject();
  const store = memory ? openDeliveryStore(':memory:') : undefined;
  const stop = startWebhooks(input, ctxFor(hooks), { timeoutMs: 60_000, flushMs: 50, ...(store ? { store } : {}) });
  const started = performance.now();
  for (let i = 0; i < N; i += 1) input.next(transition(i));
  const ms = performance.now() - started;
  await stop();
  store?.close();
  for (const res of held.splice(0)) res.destroy();
  return (ms * 1000) / N;
};

const memoryUs = await pushCost(true);
const fileUs = await pushCost(false);
console.log(`push cost, 5 hanging receivers: in-memory queue ${memoryUs.toFixed(1)} µs, file queue ${fileUs.toFixed(1)} µs per transition`);

const M = Math.min(N, 2_000);
const input = new Subject();
const stop = startWebhooks(input, ctxFor([{ name: 'fast', url: `${base}/ok`, secret: 'k' }]), { flushMs: 60_000 });
const started = performance.now();
for (let i = 0; i < M; i += 1) input.next(transition(i));
await stop();
const ms = performance.now() - started;
const perSecond = (answered * 1000) / ms;
console.log(`end to end, 1 loopback receiver (4 in flight): ${answered} deliveries in ${ms.toFixed(0)} ms = ${perSecond.toFixed(0)}/s`);

server.close();
rmSync(root, { recursive: true, force: true });
console.log(
  JSON.stringify({
    name: 'webhooks',
    figures: { push_us_per_transition_file: fileUs, push_us_per_transition_memory: memoryUs, file_vs_memory_ratio: fileUs / memoryUs, deliveries_per_second: perSecond },
    anchors: { transitions: N, receivers_hanging: 5, end_to_end_deliveries: M },
  }),
);
