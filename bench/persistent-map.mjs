/**
 * The fold's sessions map (`src/streams/persistent-map.ts`, a hash array mapped trie) next to the
 * plain alternative measured in the same run: a `Map` copied on write. The fold publishes a new
 * map per batch and every earlier one must stay valid (frames and sinks hold them), so a plain
 * `Map` has to be copied before each change.
 *
 *   node bench/persistent-map.mjs [--size N] [--rounds R]   (npm run build first)
 *
 * Operations, each on a map of `--size` sessions (10,000 by default):
 * - one batch: set one key and keep both versions (the common live case);
 * - a batch of 8 keys (the fold's `withChanges`; a copy-on-write Map copies once for all 8);
 * - iterate every entry (the first frame, a metrics scrape, a full listing);
 * - get every key;
 * - build from `--size` entries (a warm start restores every session at once);
 * - heap retained per version kept, the values themselves not counted (what old frames cost).
 *
 * Immutable.js is the other candidate; it is not a dependency, so it is not measured here.
 */
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { arg, median, saveResult } from './util.mjs';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const { PersistentMap } = await import(pathToFileURL(path.join(dist, 'streams/persistent-map.js')).href);

// A full collection on demand, without asking for a node flag (run.mjs spawns plain `node`).
v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

const SIZE = arg('size', 10_000);
const ROUNDS = arg('rounds', 7);
const keys = Array.from({ length: SIZE }, (_, i) => `claude:${(0x9e3779b1 * (i + 1)) >>> 0}-${i}`);
const value = (i) => ({ id: i, activity: 'idle', lastActivity: i });

/** The median time per operation, in µs, of `ROUNDS` rounds of `times` calls each. */
const time = (times, run) => {
  const samples = [];
  for (let round = 0; round < ROUNDS + 1; round += 1) {
    const start = performance.now();
    for (let i = 0; i < times; i += 1) run(i);
    const perOp = ((performance.now() - start) * 1000) / times;
    if (round > 0) samples.push(perOp); // the first round warms the JIT up
  }
  return median(samples);
};

const entries = keys.map((key, i) => [key, value(i)]);

const hamt = {
  name: 'PersistentMap (HAMT)',
  build: () => PersistentMap.from(entries),
  setOne: (map, key, v) => map.set(key, v),
  setMany: (map, changes) => map.withChanges(changes),
};
const copyOnWrite = {
  name: 'Map, copied on write',
  build: () => new Map(entries),
  setOne: (map, key, v) => new Map(map).set(key, v),
  setMany: (map, changes) => {
    const next = new Map(map);
    for (const [key, v] of changes) if (v === undefined) next.delete(key);
    else next.set(key, v);
    return next;
  },
};

let sink = 0;
const measure = (impl) => {
  const base = impl.build();
  let map = base;
  const setOne = time(impl === hamt ? 20_000 : 200, (i) => {
    map = impl.setOne(base, keys[(i * 7919) % SIZE], value(i));
  });
  const batch = new Map(Array.from({ length: 8 }, (_, k) => [keys[(k * 1231) % SIZE], value(k)]));
  const setEight = time(impl === hamt ? 5_000 : 200, () => {
    map = impl.setMany(base, batch);
  });
  const iterate = time(50, () => {
    for (const [, v] of base) sink += v.id;
  });
  const forEach = time(50, () => {
    base.forEach((v) => {
      sink += v.id;
    });
  });
  const getAll = time(50, () => {
    for (const key of keys) sink += base.get(key).id;
  });
  const build = time(10, () => {
    map = impl.build();
  });
  // Enough versions for the figure to stand above the heap's noise, few enough to fit in memory.
  const count = impl === hamt ? 5_000 : 50;
  const held = Array.from({ length: count }, (_, i) => value(i));
  gc();
  const before = process.memoryUsage().heapUsed;
  const versions = [base];
  for (let i = 0; i < count; i += 1) versions.push(impl.setOne(versions[versions.length - 1], keys[(i * 7919) % SIZE], held[i]));
  gc();
  const retainedKiB = (process.memoryUsage().heapUsed - before) / 1024 / count;
  sink += versions.length + map.size;
  return { setOne, setEight, iterate, forEach, getAll, build, retainedKiB };
};

const figures = measure(hamt);
const anchor = measure(copyOnWrite);
const rows = [
  ['set one key, both versions kept', 'setOne', 'µs'],
  ['set 8 keys at once, both versions kept', 'setEight', 'µs'],
  ['iterate every entry (for...of)', 'iterate', 'µs'],
  ['iterate every entry (forEach)', 'forEach', 'µs'],
  ['get every key', 'getAll', 'µs'],
  [`build from ${SIZE.toLocaleString('en')} entries`, 'build', 'µs'],
  ['heap retained per version kept', 'retainedKiB', 'KiB'],
];
console.log(`maps of ${SIZE.toLocaleString('en')} string keys, median of ${ROUNDS} rounds\n`);
console.log(`${'operation'.padEnd(42)}${hamt.name.padStart(22)}${copyOnWrite.name.padStart(24)}${'ratio'.padStart(9)}`);
const ratios = {};
for (const [label, key, unit] of rows) {
  ratios[key] = figures[key] / anchor[key];
  const show = (n) => `${n < 10 ? n.toFixed(2) : n.toFixed(0)} ${unit}`;
  const ratio = ratios[key] < 0.1 ? `1/${(1 / ratios[key]).toFixed(0)}` : `${ratios[key].toFixed(2)}x`;
  console.log(`${label.padEnd(42)}${show(figures[key]).padStart(22)}${show(anchor[key]).padStart(24)}${ratio.padStart(9)}`);
}
if (sink === 0) console.log('');
console.log(`\nsaved ${saveResult('persistent-map', { size: SIZE, rounds: ROUNDS, figures, anchors: { 'Map, copied on write': anchor }, ratios })}`);
