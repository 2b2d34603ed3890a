// Webhook sink cost, measured on the built code (npm run build first):
//  1. what one transition costs the pipeline (Subject.next -> sink) with receivers that hang,
//     i.e. the sink never makes the producer wait, whatever the receivers do;
//  2. end-to-end deliveries per second to a real loopback receiver (signed, got).
// Usage: node bench/webhooks.mjs [transitions]
import { createServer } from 'node:http';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { asyncScheduler, Subject } from 'rxjs';
import { toEffective } from '../dist/config/effective.js';
import { configSchema } from '../dist/config/schema.js';
import { startWebhooks } from '../dist/sinks/webhook/index.js';

const N = Number(process.argv[2] ?? 20_000);
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const ctxFor = (webhooks) => ({
  config: toEffective(configSchema.parse({ webhooks }), {}).config,
  env: {},
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

{
  const hooks = Array.from({ length: 5 }, (_, i) => ({ name: `hang${i}`, url: `${base}/hang`, secret: 'k' }));
  const input = new Subject();
  const stop = startWebhooks(input, ctxFor(hooks), { timeoutMs: 60_000, flushMs: 50 });
  const started = performance.now();
  for (let i = 0; i < N; i += 1) input.next(transition(i));
  const ms = performance.now() - started;
  console.log(`push cost, 5 hanging receivers: ${N} transitions in ${ms.toFixed(1)} ms = ${((ms * 1000) / N).toFixed(2)} µs per transition`);
  await stop();
  for (const res of held.splice(0)) res.destroy();
}

{
  const M = Math.min(N, 2_000);
  const input = new Subject();
  const stop = startWebhooks(input, ctxFor([{ name: 'fast', url: `${base}/ok`, secret: 'k' }]), { queueCapacity: M, flushMs: 60_000 });
  const started = performance.now();
  for (let i = 0; i < M; i += 1) input.next(transition(i));
  await stop();
  const ms = performance.now() - started;
  console.log(`end to end, 1 loopback receiver (sequential per entry): ${answered} deliveries in ${ms.toFixed(0)} ms = ${((answered * 1000) / ms).toFixed(0)}/s`);
}

server.close();
