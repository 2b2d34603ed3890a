// What an oversized provider answer costs `agentwatch limits`, on the built code (npm run build
// first): five concurrent GETs to a loopback server that answers each with MB megabytes, read by
// the production HttpGet (1 MiB cap) and, as the baseline in the same run, by the same got
// request without a cap (what limits did before the cap). Each variant runs in a child process so
// its peak RSS is its own (/proc/self/status VmHWM).
// Usage: node bench/limits-cap.mjs [MB=50]
// The last stdout line is one JSON object { name, figures, anchors }.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const MB = Number(process.argv.find((a, i) => i > 1 && /^\d+$/.test(a)) ?? 50);
const child = process.argv.includes('--child');

if (child) {
  const [url, cap] = [process.env.BENCH_URL, process.env.BENCH_CAP];
  const { makeGotGet } = await import('../dist/limits/http.js');
  const get = makeGotGet(cap === 'none' ? Number.POSITIVE_INFINITY : Number(cap));
  const started = performance.now();
  const results = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => get({ url: `${url}/a${i}`, headers: {}, timeoutMs: 120_000 })));
  const ms = performance.now() - started;
  const hwm = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);
  console.log(JSON.stringify({ ms, peakMiB: hwm / 1024, failed: results.filter((r) => r.status === 'rejected').length }));
  process.exit(0);
}

const chunk = Buffer.alloc(64 * 1024, 'a');
const server = createServer((req, res) => {
  const total = MB * 1024 * 1024;
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(total + 2) });
  res.write('"');
  let sent = 0;
  const pump = () => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end('"');
  };
  pump();
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const url = `http://127.0.0.1:${server.address().port}`;
const run = (cap) =>
  new Promise((resolve, reject) => {
    const out = [];
    const proc = spawn(process.execPath, [fileURLToPath(import.meta.url), '--child'], { env: { ...process.env, BENCH_URL: url, BENCH_CAP: cap } });
    proc.stdout.on('data', (d) => out.push(d));
    proc.on('error', reject);
    proc.on('close', () => resolve(JSON.parse(Buffer.concat(out).toString().trim().split('\n').at(-1))));
  });
const capped = await run(String(1024 * 1024));
const uncapped = await run('none');
server.close();
console.log(`5 answers of ${MB} MB: capped ${capped.ms.toFixed(0)} ms, peak ${capped.peakMiB.toFixed(0)} MiB (${capped.failed} refused); uncapped ${uncapped.ms.toFixed(0)} ms, peak ${uncapped.peakMiB.toFixed(0)} MiB`);
console.log(
  JSON.stringify({
    name: 'limits-cap',
    figures: {
      capped_ms: capped.ms,
      capped_peak_mib: capped.peakMiB,
      uncapped_ms: uncapped.ms,
      uncapped_peak_mib: uncapped.peakMiB,
      peak_ratio_capped_vs_uncapped: capped.peakMiB / uncapped.peakMiB,
      time_ratio_capped_vs_uncapped: capped.ms / uncapped.ms,
    },
    anchors: { answers: 5, answer_mb: MB },
  }),
);
