// The claude, codex and pi sources on the shared generated corpus (bench/corpus.mjs), measured on
// the built code (npm run build first), each step in its own process so CPU time is its own:
//  1. baseline: readFileSync + JSON.parse of every line of every file (bench/baseline.mjs);
//  2. cold one-shot scan (watch: false, no cache): every line skimmed or parsed into events;
//  3. warm one-shot scan from a discovery cache filled by a previous pass (stat + restore only);
//  4. watch mode: time to `ready`, directory watches held, RSS added, append-to-event latency.
// Usage: node bench/jsonl-sources.mjs [sessions] [mean-kb]   (default 1000 sessions of ~70 KB)
import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setImmediate, setTimeout } from 'node:timers';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCorpus } from './corpus.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const AGENTS = ['claude', 'codex', 'pi'];

const child = async (mode, home, cacheDir, filesList) => {
  const { asyncScheduler, map, share, lastValueFrom, toArray } = await import('rxjs');
  const { toEffective } = await import('../dist/config/effective.js');
  const { configSchema } = await import('../dist/config/schema.js');
  const { sources, openDiscoveryCache, persistCache } = await import('../dist/sources/index.js');
  const { reduceSession } = await import('../dist/streams/reduce-session.js');
  const env = { HOME: home, XDG_CACHE_HOME: cacheDir };
  const ctx = { config: toEffective(configSchema.parse({}), env).config, env, scheduler: asyncScheduler, now: () => Date.now(), log: { info() {}, warn() {}, error() {} }, platform: 'linux' };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const rss0 = process.memoryUsage().rss;
  if (mode === 'watch') {
    let ready = 0;
    let pinged = 0;
    const subs = AGENTS.map((a) => sources[a](ctx).subscribe((e) => {
      if (e.type === 'ready') ready++;
      if (e.type === 'turn' && e.text === 'bench ping') pinged = performance.now();
    }));
    while (ready < AGENTS.length) await new Promise((r) => setTimeout(r, 2));
    const readyMs = performance.now() - t0;
    const watches = process.getActiveResourcesInfo().filter((r) => r === 'FSEventWrap').length;
    const rssMiB = (process.memoryUsage().rss - rss0) / 1048576;
    const file = readFileSync(filesList, 'utf8').split('\n').find((f) => f.includes('/.claude/projects/'));
    const latencies = [];
    for (let i = 0; i < 21; i++) {
      pinged = 0;
      const start = performance.now();
      appendFileSync(file, `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'bench ping' }, timestamp: new Date().toISOString() })}\n`);
      while (!pinged) await new Promise((r) => setImmediate(r));
      latencies.push(pinged - start);
    }
    latencies.sort((a, b) => a - b);
    subs.forEach((s) => s.unsubscribe());
    return { readyMs, watches, rssMiB, p50: latencies[10], p95: latencies[19] };
  }
  const cache = mode === 'cold' ? undefined : openDiscoveryCache(env);
  const events$ = AGENTS.map((a) => sources[a]({ ...ctx, watch: false, ...(cache ? { cache } : {}) }).pipe(share()));
  let events = 0;
  // The real pipeline folds in batches; here one mutable map per agent keeps the fold out of the numbers.
  for (const e$ of events$) {
    const sessions = new Map();
    const state$ = e$.pipe(
      map((e) => {
        if (e.type !== 'ready' && e.type !== 'diagnostic') {
          const key = `${e.agent}:${e.sessionId}`;
          const next = reduceSession(sessions.get(key), e);
          if (next) sessions.set(key, next);
          else sessions.delete(key);
        }
        return { sessions, diagnostics: {}, ready: false };
      }),
    );
    const stop = cache ? persistCache(state$, cache, asyncScheduler) : undefined;
    events += (await lastValueFrom(e$.pipe(toArray()))).length;
    await stop?.();
  }
  cache?.close();
  const cpu = process.cpuUsage(cpu0);
  return { ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, events };
};

if (process.argv[2] === '--child') {
  const [, , , mode, home, cacheDir, filesList] = process.argv;
  process.stdout.write(JSON.stringify(await child(mode, home, cacheDir, filesList)));
} else {
  const sessions = Number(process.argv[2] ?? 1000);
  const meanKb = Number(process.argv[3] ?? 70);
  const root = path.join(here, '.corpus', `jsonl-${sessions}-${meanKb}`);
  const corpus = ensureCorpus({ root, sessions, meanKb });
  const filesList = path.join(root, 'files.txt');
  const cacheDir = path.join(tmpdir(), `aw-bench-jsonl-cache-${process.pid}`);
  const run = (args) => {
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(r.stderr);
    return r.stdout;
  };
  const timedBaseline = () => {
    const r = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, path.join(here, 'baseline.mjs'), filesList], { encoding: 'utf8' });
    const [u, s] = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
    return (u + s) * 1000;
  };
  const inChild = (mode) => JSON.parse(run([fileURLToPath(import.meta.url), '--child', mode, corpus.home, cacheDir, filesList]));
  const baselineCpu = timedBaseline();
  const cold = inChild('cold');
  rmSync(cacheDir, { recursive: true, force: true });
  inChild('fill');
  const warm = inChild('warm');
  const watch = inChild('watch');
  rmSync(cacheDir, { recursive: true, force: true });
  const mb = (corpus.bytes / 1048576).toFixed(0);
  process.stdout.write(
    [
      `corpus: ${corpus.files} files, ${mb} MiB (claude, codex, pi) under ${corpus.home}`,
      `baseline (read + JSON.parse every line, whole process): ${baselineCpu.toFixed(0)} ms CPU`,
      `cold one-shot scan: ${cold.cpuMs.toFixed(0)} ms CPU (${cold.ms.toFixed(0)} ms wall), ${cold.events} events`,
      `warm one-shot scan from the cache: ${warm.cpuMs.toFixed(0)} ms CPU (${warm.ms.toFixed(0)} ms wall), ${warm.events} events`,
      `watch mode: ready in ${watch.readyMs.toFixed(0)} ms, ${watch.watches} directory watches, +${watch.rssMiB.toFixed(0)} MiB RSS, append-to-event p50 ${watch.p50.toFixed(1)} ms / p95 ${watch.p95.toFixed(1)} ms`,
      '',
    ].join('\n'),
  );
}
