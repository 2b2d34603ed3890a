/**
 * Where the idle memory of `agentwatch --api` goes: starts it on the idle corpus
 * (bench/idle-cpu.mjs's, 7-day window), waits for the first discovery and `--settle` seconds,
 * then reads the process's memory map (/proc/PID/smaps: heap, code, malloc arenas, thread stacks)
 * and, with `--snapshot`, a V8 heap snapshot summarised by object kind and constructor, with the
 * most duplicated strings (what interning would save).
 *
 *   node bench/memory.mjs [--sessions N] [--settle S] [--snapshot 1] [--cold 1] [--cli path/to/dist/cli.js] [-- node flags...]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { idleCorpus, statsWhenReady } from './monitor-run.mjs';
import { arg, sleep } from './util.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const sessions = arg('sessions', 7700);
const settle = arg('settle', 20);
const wantSnapshot = arg('snapshot', 0) === 1;
const cold = arg('cold', 0) === 1;
const cliAt = process.argv.indexOf('--cli');
const cli = cliAt === -1 ? path.join(here, '..', 'dist', 'cli.js') : path.resolve(process.argv[cliAt + 1]);
const dashes = process.argv.indexOf('--');
const nodeFlags = dashes === -1 ? [] : process.argv.slice(dashes + 1);
const { root, env, token } = idleCorpus({ sessions, extraEnv: ['MALLOC_ARENA_MAX', 'GLIBC_TUNABLES'] });

// A cold start (no discovery cache, no search index) leaves the most garbage and fragmentation behind.
if (cold) rmSync(env.XDG_CACHE_HOME, { recursive: true, force: true });
const snapDir = path.join(root, 'snapshots');
rmSync(snapDir, { recursive: true, force: true });
mkdirSync(snapDir, { recursive: true });
const child = spawn(process.execPath, [...nodeFlags, '--heapsnapshot-signal=SIGUSR2', cli, '--api', '--host', '127.0.0.1:0'], { env, cwd: snapDir, stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
child.stderr.on('data', (chunk) => (stderr += chunk));
const started = Date.now();
let base;
while (!(base = /listening on (http:\/\/\S+)/.exec(stderr)?.[1])) {
  if (child.exitCode !== null) throw new Error(stderr);
  await sleep(20);
}
// The first discovery has ended once /api/stats says ready.
const listed = (await statsWhenReady(base, token)).total_sessions;
const readyMs = Date.now() - started;
const readyCpuMs = (() => {
  const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
})();
// CPU and RSS each second of the settling (what runs after the first discovery, and when memory comes back).
const cpuTicks = () => {
  const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(f[11]) + Number(f[12]);
};
const trace = [];
for (let s = 0, t = cpuTicks(); s < settle; s += 1) {
  await sleep(1000);
  const now = cpuTicks();
  trace.push(`${now - t}%/${Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024)}`);
  t = now;
}

/** RSS by kind of mapping, from smaps. */
const smaps = () => {
  const kinds = new Map();
  let kind = '';
  for (const line of readFileSync(`/proc/${child.pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[1];
      kind = name === '' ? 'anonymous (V8 heap, malloc arenas, stacks)' : name.startsWith('[') ? name : name.includes('node_modules') ? 'native addons' : name.endsWith('/node') || name.includes('/bin/node') ? 'node binary' : 'other files';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kinds.set(kind, (kinds.get(kind) ?? 0) + Number(rss[1]) / 1024);
  }
  return [...kinds].sort((a, b) => b[1] - a[1]);
};
const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
const rss = Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
const threads = Number(/Threads:\s+(\d+)/.exec(status)[1]);
console.log(`--api ${path.relative(process.cwd(), cli)} ${nodeFlags.join(' ')}: ${listed} sessions listed after ${readyMs} ms (${readyCpuMs} ms of CPU), then ${settle} s; RSS ${rss.toFixed(1)} MiB, ${threads} threads`);
console.log(`  settling, CPU %/RSS MiB each second: ${trace.join(' ')}`);
for (const line of stderr.split("\n").filter((l) => /^gc /.test(l))) console.log(`  (${line})`);
for (const [kind, mib] of smaps()) if (mib >= 0.5) console.log(`  ${mib.toFixed(1).padStart(7)} MiB  ${kind}`);
const metrics = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.text());
const metric = (name) => [...metrics.matchAll(new RegExp(`^${name}(?:\\{space="(\\w+)"\\})? (\\S+)$`, 'gm'))].map((m) => [m[1] ?? '', Number(m[2]) / 2 ** 20]);
const used = new Map(metric('nodejs_heap_space_size_used_bytes'));
console.log(`V8 heap: ${metric('nodejs_heap_size_total_bytes')[0]?.[1].toFixed(1)} MiB reserved, ${metric('nodejs_heap_size_used_bytes')[0]?.[1].toFixed(1)} used; external ${metric('nodejs_external_memory_bytes')[0]?.[1].toFixed(1)} MiB; by space (reserved/used):`);
for (const [space, total] of metric('nodejs_heap_space_size_total_bytes')) if (total >= 0.5) console.log(`  ${total.toFixed(1).padStart(7)} / ${(used.get(space) ?? 0).toFixed(1).padStart(6)} MiB  ${space}`);

if (wantSnapshot) {
  child.kill('SIGUSR2');
  let file;
  for (let i = 0; i < 600 && !file; i += 1) {
    await sleep(500);
    const found = readdirSync(snapDir).find((name) => name.endsWith('.heapsnapshot'));
    if (found) file = path.join(snapDir, found);
  }
  // The file is complete once it parses (V8 writes it in pieces).
  let snap;
  while (!snap) {
    await sleep(2000);
    try {
      snap = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      // still being written
    }
  }
  child.kill('SIGTERM');
  summarise(snap);
} else child.kill('SIGTERM');

/** Self size by node type and constructor, plus duplicated strings. */
function summarise(snap) {
  const { node_fields: fields, node_types: [types] } = snap.snapshot.meta;
  const width = fields.length;
  const at = (f) => fields.indexOf(f);
  const [T, N, S] = [at('type'), at('name'), at('self_size')];
  const nodes = snap.nodes;
  const byKind = new Map();
  const strings = new Map();
  let total = 0;
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + T]];
    const size = nodes[i + S];
    total += size;
    const name = snap.strings[nodes[i + N]];
    const key = type === 'object' || type === 'closure' ? `${type} ${name}` : type === 'native' ? `native ${name.slice(0, 40)}` : type;
    const entry = byKind.get(key) ?? { size: 0, count: 0 };
    entry.size += size;
    entry.count += 1;
    byKind.set(key, entry);
    if (type === 'string' || type === 'concatenated string' || type === 'sliced string') {
      const s = strings.get(name) ?? { size: 0, count: 0 };
      s.size += size;
      s.count += 1;
      strings.set(name, s);
    }
  }
  const mib = (n) => (n / 2 ** 20).toFixed(2).padStart(7);
  console.log(`heap snapshot: ${mib(total)} MiB in ${nodes.length / width} nodes; by kind (self size):`);
  for (const [key, { size, count }] of [...byKind].sort((a, b) => b[1].size - a[1].size).slice(0, 40)) console.log(`  ${mib(size)} MiB ${String(count).padStart(8)}  ${key}`);
  // Who holds what: each node's self size is counted once, under the first ordinary edge that
  // reaches it (parent constructor and property name); shapes and prototypes are not holders.
  const [ET, EN, ETo] = ['type', 'name_or_index', 'to_node'].map((f) => snap.snapshot.meta.edge_fields.indexOf(f));
  const edgeTypes = snap.snapshot.meta.edge_types[0];
  const ew = snap.snapshot.meta.edge_fields.length;
  const edges = snap.edges;
  const EC = at('edge_count');
  const owner = new Int32Array(nodes.length / width).fill(-1);
  const ownerKey = [];
  const keyIndex = new Map();
  for (let i = 0, e = 0; i < nodes.length; i += width) {
    const parentType = types[nodes[i + T]];
    const parentName = snap.strings[nodes[i + N]];
    const parent = parentType === 'object' || parentType === 'closure' ? parentName : `(${parentType})`;
    for (let k = 0; k < nodes[i + EC]; k += 1, e += ew) {
      const et = edgeTypes[edges[e + ET]];
      const label = et === 'element' ? '[]' : et === 'internal' || et === 'hidden' ? `<${snap.strings[edges[e + EN]] ?? et}>` : snap.strings[edges[e + EN]];
      if (et === 'weak' || et === 'shortcut' || label === '__proto__' || label === '<map>' || parentName === '(GC roots)') continue;
      const child = edges[e + ETo] / width;
      if (owner[child] !== -1) continue;
      const childType = types[nodes[edges[e + ETo] + T]];
      const key = `${parent}.${label} -> ${childType === 'object' ? snap.strings[nodes[edges[e + ETo] + N]] : childType}`;
      let index = keyIndex.get(key);
      if (index === undefined) keyIndex.set(key, (index = ownerKey.push({ key, size: 0, count: 0 }) - 1));
      owner[child] = index;
      ownerKey[index].size += nodes[edges[e + ETo] + S];
      ownerKey[index].count += 1;
    }
  }
  console.log('self size by the first edge that holds it (parent.property -> kind), each node counted once:');
  for (const { key, size, count } of [...ownerKey].sort((a, b) => b.size - a.size).slice(0, 45)) console.log(`  ${mib(size)} MiB ${String(count).padStart(8)}  ${key}`);
  console.log('ropes (concatenated strings) by what holds their top node:');
  for (const { key, size, count } of ownerKey.filter((o) => o.key.endsWith('-> concatenated string') && !o.key.startsWith('(concatenated')).sort((a, b) => b.count - a.count).slice(0, 12)) console.log(`  ${mib(size)} MiB ${String(count).padStart(8)}  ${key}`);
  const dupes = [...strings].filter(([, s]) => s.count > 1).map(([value, s]) => [value, s, s.size - s.size / s.count]);
  const wasted = dupes.reduce((sum, [, , w]) => sum + w, 0);
  console.log(`duplicated strings: ${mib(wasted)} MiB would be saved by holding each value once; the largest:`);
  for (const [value, { count }, w] of dupes.sort((a, b) => b[2] - a[2]).slice(0, 25)) console.log(`  ${mib(w)} MiB x${String(count).padStart(6)}  ${JSON.stringify(value.slice(0, 90))}`);
}
