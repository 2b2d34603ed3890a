/**
 * Reading a compressed Codex rollout (`.jsonl.zst`): the MiB of text per second that
 * `readCompressedLines` decompresses and splits into lines, for a generated rollout of about
 * 6 MiB compressed by the zstd CLI (level 3, as Codex writes them, and level 19).
 *
 *   node bench/zstd-read.mjs [--runs 9] [--mib 6] [--other <src dir>]
 *
 * --other  a second source tree (say, an older commit's `src/` from `git archive`): its
 *          `readCompressedLines` runs interleaved with this tree's, in the same process, and
 *          the ratio of the two is printed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { arg, machine } from './util.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const runs = arg('runs', 9);
const mib = arg('mib', 6);
const otherAt = process.argv.indexOf('--other');
const other = otherAt === -1 ? undefined : path.resolve(process.argv[otherAt + 1]);

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
const seeded = (seed) => {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

const WORDS = 'the a to of and in is for that this it with on be as are from not by file test function return const value type error message line session output input read write path index config should when if check run build fix change update add remove'.split(' ');
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A Codex-like rollout: reasoning with encrypted content, calls, outputs and token counts. */
const rollout = (bytes) => {
  const rand = seeded(42);
  const words = (n) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  const opaque = (n) => Array.from({ length: n }, () => BASE64[Math.floor(rand() * 64)]).join('');
  const lines = [];
  let size = 0;
  let t = Date.UTC(2026, 10, 20, 10);
  const push = (type, payload) => {
    const line = JSON.stringify({ timestamp: new Date(t).toISOString(), type, payload });
    lines.push(line);
    size += line.length + 1;
  };
  push('session_meta', { id: '019f3a10-1111-7aaa-8bbb-00000000c0de', cwd: '/work/app', originator: 'codex_cli_rs', cli_version: '0.137.0' });
  for (let n = 1; size < bytes; n += 1) {
    t += 1_000 + Math.floor(rand() * 15_000);
    push('response_item', { type: 'reasoning', summary: [{ type: 'summary_text', text: words(20 + Math.floor(rand() * 60)) }], encrypted_content: opaque(1_000 + Math.floor(rand() * 3_000)) });
    push('response_item', { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['rg', '-n', 'round', 'src'] }), call_id: `call_${n}` });
    push('response_item', { type: 'function_call_output', call_id: `call_${n}`, output: words(50 + Math.floor(rand() * (rand() < 0.05 ? 20_000 : 1_500))) });
    push('event_msg', { type: 'token_count', info: { total_token_usage: { input_tokens: n * 3_000, output_tokens: n * 200 } } });
  }
  return `${lines.join('\n')}\n`;
};

const scratch = mkdtempSync(path.join(tmpdir(), 'zstd-read-'));
try {
  const plain = path.join(scratch, 'rollout.jsonl');
  const text = rollout(mib * 1024 * 1024);
  writeFileSync(plain, text);
  const inputs = ['3', '19'].map((level) => {
    const file = `${plain}.L${level}.zst`;
    execFileSync('zstd', [`-${level}`, '-q', '-f', plain, '-o', file]);
    return { level, file };
  });

  const trees = [{ name: 'this tree', src: path.join(here, '..', 'src') }, ...(other ? [{ name: 'other', src: other }] : [])];
  for (const tree of trees) {
    ({ readCompressedLines: tree.read } = await tsImport(pathToFileURL(path.join(tree.src, 'sources', 'internal', 'compressed.ts')).href, import.meta.url));
  }

  const readOnce = async (read, file) => {
    let lines = 0;
    const started = performance.now();
    await read(file, (items) => {
      lines += items.length;
    });
    return { ms: performance.now() - started, lines };
  };

  const result = { runs, mib_plain: Number((text.length / 2 ** 20).toFixed(2)), inputs: [] };
  for (const { level, file } of inputs) {
    const times = new Map(trees.map((tree) => [tree.name, []]));
    // One warm-up each, then interleaved runs, so both trees see the same machine load.
    for (const tree of trees) await readOnce(tree.read, file);
    for (let r = 0; r < runs; r += 1) {
      for (const tree of r % 2 === 0 ? trees : [...trees].reverse()) {
        const { ms, lines } = await readOnce(tree.read, file);
        if (lines === 0) throw new Error(`${tree.name} read no lines`);
        times.get(tree.name).push(ms);
      }
    }
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const row = { level, figures: {} };
    for (const tree of trees) {
      const ms = median(times.get(tree.name));
      row.figures[tree.name] = { median_ms: Number(ms.toFixed(1)), mib_per_s: Number((text.length / 2 ** 20 / (ms / 1000)).toFixed(1)) };
      console.log(`level ${level.padStart(2)}  ${tree.name.padEnd(10)} ${ms.toFixed(1).padStart(8)} ms  ${row.figures[tree.name].mib_per_s} MiB/s`);
    }
    if (other) {
      row.ratio = Number((median(times.get('other')) / median(times.get('this tree'))).toFixed(2));
      console.log(`level ${level.padStart(2)}  other / this tree: ${row.ratio}x the time`);
    }
    result.inputs.push(row);
  }
  console.log(JSON.stringify({ machine: machine(), ...result }));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
