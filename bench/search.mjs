/**
 * `agentwatch search` (issue 15): index build time and size on a generated corpus, and query
 * latency p50/p95 of the one-shot command (catch-up included: nothing new to read) against a plain
 * `grep -r -l -i` of the same files, measured in the same run.
 *
 *   node bench/search.mjs [--sessions N] [--queries Q]
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ensureCorpus } from './corpus.mjs';
import { arg, percentile } from './util.mjs';
import { configHome, dataHome } from './corpus-agents.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const sessions = arg('sessions', 3000);
const queries = arg('queries', 15);
const root = path.join(here, '.corpus-idle');
const corpus = ensureCorpus({ root, sessions, meanKb: 20 });
const cache = path.join(root, 'search-cache');
rmSync(cache, { recursive: true, force: true });
mkdirSync(cache, { recursive: true });
const env = { HOME: corpus.home, XDG_CONFIG_HOME: configHome(corpus.home), XDG_CACHE_HOME: cache, XDG_DATA_HOME: dataHome(corpus.home), PATH: process.env.PATH, NO_COLOR: '1' };
const cli = path.join(here, '..', 'dist', 'cli.js');
const time = (command, args) => {
  const start = performance.now();
  const result = spawnSync(command, args, { env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return { ms: performance.now() - start, status: result.status, stdout: result.stdout };
};

const build = time(process.execPath, [cli, 'search', '--reindex', '--json', 'state']);
const dbBytes = ['', '-wal'].reduce((sum, suffix) => sum + (statSync(path.join(cache, 'agentwatch', `search.db${suffix}`), { throwIfNoEntry: false })?.size ?? 0), 0);
const words = ['cache', 'stream', 'offset', 'session', 'token', 'window', 'record', 'parse', 'error', 'value', 'result', 'event', 'interface', 'function', 'import'];
const ours = [];
const grep = [];
for (let i = 0; i < queries; i += 1) {
  const word = words[i % words.length];
  ours.push(time(process.execPath, [cli, 'search', '--json', '--limit', '10', word]).ms);
  grep.push(time('grep', ['-r', '-l', '-i', word, path.join(corpus.home, '.claude'), path.join(corpus.home, '.codex'), path.join(corpus.home, '.pi')]).ms);
}
const figures = { buildMs: Math.round(build.ms), indexMiB: +(dbBytes / 1048576).toFixed(1), queryP50Ms: Math.round(percentile(ours, 0.5)), queryP95Ms: Math.round(percentile(ours, 0.95)) };
const anchors = { grepP50Ms: Math.round(percentile(grep, 0.5)), grepP95Ms: Math.round(percentile(grep, 0.95)) };
console.log(`search on ${sessions}-session corpus: index built in ${figures.buildMs} ms, ${figures.indexMiB} MiB`);
console.log(`  agentwatch search (one-shot, catch-up included) p50 ${figures.queryP50Ms} ms, p95 ${figures.queryP95Ms} ms`);
console.log(`  grep -r -l -i of the same transcripts             p50 ${anchors.grepP50Ms} ms, p95 ${anchors.grepP95Ms} ms`);
console.log(JSON.stringify({ name: 'search', figures, anchors }));
