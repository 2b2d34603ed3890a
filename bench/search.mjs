/**
 * `agentwatch search` on a generated corpus of all nine agents, against baselines
 * measured in the same run on the same files:
 *
 * - index build: `search --reindex` (every transcript and database read, every message indexed)
 *   against `sessions --all --json` with no discovery cache (the same files read by the same
 *   sources, nothing indexed); the index's size against the corpus's;
 * - query latency p50/p95 of the one-shot command (catch-up included: nothing new to read) and of
 *   the query alone on the built index (what GET /api/search costs), against `grep -r -l -i` of the
 *   same files for the same words.
 *
 *   node bench/search.mjs [--corpus DIR] [--sessions N] [--queries Q]
 *
 * `--corpus DIR`: a corpus bench/corpus.mjs wrote (DIR/manifest.json), used as it is; without it
 * one of `--sessions` (default 1000; `npm run bench` passes its own) sessions is generated in
 * bench/.corpus-search. Needs `npm run build`. The last line of stdout is the JSON summary.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { ensureCorpus, refreshCursor } from './corpus.mjs';
import { homeEnv } from './corpus-agents.mjs';
import { arg, median, percentile } from './util.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const corpusAt = process.argv.includes('--corpus') ? path.resolve(process.argv[process.argv.indexOf('--corpus') + 1]) : undefined;
const queries = arg('queries', 15);
const corpus =
  corpusAt && existsSync(path.join(corpusAt, 'manifest.json'))
    ? JSON.parse(readFileSync(path.join(corpusAt, 'manifest.json'), 'utf8'))
    : ensureCorpus({ root: corpusAt ?? path.join(here, '.corpus-search'), sessions: arg('sessions', 1000), meanKb: 20 });
refreshCursor(corpus);

const scratch = path.join(here, '.corpus-search-cache');
const cacheHome = path.join(scratch, 'cache');
const env = { ...homeEnv(corpus.home, cacheHome), TZ: 'UTC' };
const cli = path.join(here, '..', 'dist', 'cli.js');
const fresh = () => {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(cacheHome, { recursive: true });
};
const run = (command, args) => {
  const start = performance.now();
  const result = spawnSync(command, args, { env, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  const ms = performance.now() - start;
  if (command === process.execPath && result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { ms, stdout: result.stdout };
};
const sizeOf = (file) => statSync(file, { throwIfNoEntry: false })?.size ?? 0;

// Index build against the same read without indexing (both cold: no discovery cache, no index).
const builds = [];
const reads = [];
for (let i = 0; i < 2; i += 1) {
  fresh();
  reads.push(run(process.execPath, [cli, 'sessions', '--all', '--json']).ms);
  fresh();
  builds.push(run(process.execPath, [cli, 'search', '--reindex', '--json', 'cache']).ms);
}
const indexFile = path.join(cacheHome, 'agentwatch', 'search.db');
const indexBytes = sizeOf(indexFile) + sizeOf(`${indexFile}-wal`) + sizeOf(path.join(cacheHome, 'agentwatch', 'search-cursor.db'));
const index = new Database(indexFile, { readonly: true });
const messages = index.prepare('SELECT count(*) FROM messages').pluck().get();
const sessions = index.prepare('SELECT count(*) FROM sessions WHERE sidechain = 0').pluck().get();

// Query latency: the one-shot command, the query alone, grep of the same files.
const { searchIndex } = await import('../dist/search/query.js');
const agents = ['amp', 'claude', 'codex', 'cursor', 'grok', 'kilo', 'kimi', 'opencode', 'pi'];
const words = ['cache', 'stream', 'offset', 'session', 'token', 'window', 'record', 'parse', 'error', 'value', '"return value"', 'interface', 'function', 'import', 'pars*'];
const oneShot = [];
const inProcess = [];
const grep = [];
const grepRoots = ['.claude', '.codex', '.pi', '.local', '.grok', '.kimi', '.config'].map((dir) => path.join(corpus.home, dir)).filter((dir) => existsSync(dir));
for (let i = 0; i < queries; i += 1) {
  const word = words[i % words.length];
  oneShot.push(run(process.execPath, [cli, 'search', '--json', '--limit', '10', word]).ms);
  const start = performance.now();
  searchIndex(index, word, { agents, limit: 10, excludeCwd: [] });
  inProcess.push(performance.now() - start);
  grep.push(run('grep', ['-r', '-l', '-i', '-E', word.replace(/"/g, '').replace('*', '[a-z]*'), ...grepRoots]).ms);
}
index.close();
const second = run(process.execPath, [cli, 'search', '--json', 'cache']);

const figures = {
  sessionsIndexed: sessions,
  messagesIndexed: messages,
  buildMs: Math.round(median(builds)),
  indexMiB: +(indexBytes / 1048576).toFixed(1),
  oneShotQueryP50Ms: Math.round(percentile(oneShot, 0.5)),
  oneShotQueryP95Ms: Math.round(percentile(oneShot, 0.95)),
  queryP50Ms: +percentile(inProcess, 0.5).toFixed(2),
  queryP95Ms: +percentile(inProcess, 0.95).toFixed(2),
};
const anchors = {
  readWithoutIndexMs: Math.round(median(reads)),
  corpusMiB: +(corpus.bytes / 1048576).toFixed(1),
  grepP50Ms: Math.round(percentile(grep, 0.5)),
  grepP95Ms: Math.round(percentile(grep, 0.95)),
};
const ratio = (a, b) => (b > 0 ? (a / b).toFixed(2) : 'n/a');
console.log(`search on ${corpus.files} files (${anchors.corpusMiB} MiB): ${sessions} sessions, ${messages} messages indexed`);
console.log(`  index build (search --reindex)  ${figures.buildMs} ms = ${ratio(figures.buildMs, anchors.readWithoutIndexMs)}x the same read without indexing (sessions --all, cold: ${anchors.readWithoutIndexMs} ms)`);
console.log(`  index size                      ${figures.indexMiB} MiB = ${ratio(figures.indexMiB, anchors.corpusMiB)}x the corpus`);
console.log(`  one-shot search (catch-up incl.) p50 ${figures.oneShotQueryP50Ms} ms, p95 ${figures.oneShotQueryP95Ms} ms = ${ratio(figures.oneShotQueryP50Ms, anchors.grepP50Ms)}x / ${ratio(figures.oneShotQueryP95Ms, anchors.grepP95Ms)}x grep`);
console.log(`  query alone (GET /api/search)   p50 ${figures.queryP50Ms} ms, p95 ${figures.queryP95Ms} ms = ${ratio(figures.queryP50Ms, anchors.grepP50Ms)}x / ${ratio(figures.queryP95Ms, anchors.grepP95Ms)}x grep`);
console.log(`  grep -r -l -i of the same files p50 ${anchors.grepP50Ms} ms, p95 ${anchors.grepP95Ms} ms; a second search after the build ${Math.round(second.ms)} ms`);
console.log(JSON.stringify({ name: 'search', figures, anchors }));
