/**
 * `node bench/discovery-suite.mjs` (part of `npm run bench`): cold and warm discovery time and peak memory of
 * `agentwatch sessions --all --json` on a generated corpus of all nine agents, each against a
 * baseline measured in the same run (bench/baseline.mjs: a plain Node script that JSON-parses every
 * line of every file and every JSON value of every row of the SQLite databases), the sessions
 * listed per agent (checked against the corpus), `--help` start-up time against `node -e 0`, and
 * the CPU cost of an unchanged SQLite poll (bench/sqlite-poll.mjs).
 *
 * Size: BENCH_SESSIONS (default 3000) claude/codex/pi transcripts of about BENCH_MEAN_KB (default
 * 70) KB each, plus BENCH_SESSIONS/20 sessions of each other agent; BENCH_SIZE=small is 300 x 40 KB.
 * BENCH_RUNS (default 3) repetitions of each timed step; BENCH_POLLS unchanged polls (default 5000).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ensureCorpus, refreshCursor } from './corpus.mjs';
import { homeEnv } from './corpus-agents.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
// BENCH_CLI: another build's dist/cli.js, to compare builds on the same corpus and baseline.
const cli = process.env.BENCH_CLI ?? path.join(here, '..', 'dist', 'cli.js');
const probe = path.join(here, 'probe.mjs');
const small = process.env.BENCH_SIZE === 'small';
const sessions = Number(process.env.BENCH_SESSIONS ?? (small ? 300 : 3000));
const meanKb = Number(process.env.BENCH_MEAN_KB ?? (small ? 40 : 70));
const runs = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const polls = Math.max(100, Number(process.env.BENCH_POLLS ?? (small ? 2000 : 5000)));
const root = path.join(here, '.corpus');

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};

const t0 = performance.now();
const corpus = ensureCorpus({ root, sessions, meanKb });
refreshCursor(corpus);
const generateMs = performance.now() - t0;
const xdg = path.join(root, 'xdg');
const env = { ...homeEnv(corpus.home, path.join(xdg, 'cache')), TZ: 'UTC' };
mkdirSync(xdg, { recursive: true });
const rssFile = path.join(tmpdir(), `agentwatch-bench-rss-${process.pid}`);

/** Run node with the RSS probe; wall time in ms, peak RSS in MiB, stdout. */
const measure = (args) => {
  rmSync(rssFile, { force: true });
  const start = performance.now();
  const result = spawnSync(process.execPath, ['--import', probe, ...args], {
    env: { ...env, BENCH_RSS_FILE: rssFile },
    cwd: corpus.home,
    maxBuffer: 1024 * 1024 * 1024,
    encoding: 'utf8',
  });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return { ms, rssMiB: Number(readFileSync(rssFile, 'utf8')) / 1024, stdout: result.stdout, stderr: result.stderr };
};

const repeat = (count, step) => {
  const results = Array.from({ length: count }, step);
  return { ms: median(results.map((r) => r.ms)), rssMiB: median(results.map((r) => r.rssMiB)), last: results.at(-1) };
};

const baselineArgs = [path.join(here, 'baseline.mjs'), path.join(root, 'files.txt'), path.join(root, 'dbs.txt')];
measure(baselineArgs); // warm the page cache for everyone
const baseline = repeat(runs, () => measure(baselineArgs));
const baselineFacts = JSON.parse(baseline.last.stdout);

const sessionsArgs = [cli, 'sessions', '--all', '--json'];
const cold = repeat(runs, () => {
  rmSync(path.join(env.XDG_CACHE_HOME, 'agentwatch'), { recursive: true, force: true });
  return measure(sessionsArgs);
});
const warm = repeat(runs, () => measure(sessionsArgs));
const listed = JSON.parse(warm.last.stdout);
const coldListed = JSON.parse(cold.last.stdout);

/** Sessions listed per agent, against what the corpus holds (sub-agents are hidden). */
const perAgent = (list) => Object.fromEntries(Object.keys(corpus.expected).map((agent) => [agent, list.filter((s) => s.agent === agent).length]));
const listedPerAgent = perAgent(listed);
const missing = Object.entries(corpus.expected).filter(([agent, count]) => listedPerAgent[agent] !== count);

const pollRun = spawnSync(process.execPath, [path.join(here, 'sqlite-poll.mjs'), String(polls)], { env, encoding: 'utf8' });
if (pollRun.status !== 0) throw new Error(`sqlite-poll.mjs exited ${pollRun.status}: ${pollRun.stderr}`);

const corpusPoll = spawnSync(process.execPath, [path.join(here, 'corpus-poll.mjs'), path.join(root, 'dbs.txt'), String(polls)], { env, encoding: 'utf8' });
if (corpusPoll.status !== 0) throw new Error(`corpus-poll.mjs exited ${corpusPoll.status}: ${corpusPoll.stderr}`);
const corpusPolls = corpusPoll.stdout.trim().split('\n').map((line) => JSON.parse(line));

const startupRuns = Math.max(5, runs * 3);
const help = repeat(startupRuns, () => measure([cli, '--help']));
const bare = repeat(startupRuns, () => measure(['-e', '0']));

const mb = (corpus.bytes / 1024 / 1024).toFixed(0);
const row = (name, ours, base, unit) => [name, `${ours.toFixed(unit === 'ms' ? 0 : 1)} ${unit}`, `${base.toFixed(unit === 'ms' ? 0 : 1)} ${unit}`, `${(ours / base).toFixed(2)}x`];
const table = [
  ['measure', 'agentwatch', 'baseline', 'ratio'],
  row('cold discovery time', cold.ms, baseline.ms, 'ms'),
  row('cold peak RSS', cold.rssMiB, baseline.rssMiB, 'MiB'),
  row('warm discovery time', warm.ms, baseline.ms, 'ms'),
  row('warm peak RSS', warm.rssMiB, baseline.rssMiB, 'MiB'),
  row('--help start-up (vs node -e 0)', help.ms, bare.ms, 'ms'),
];
const widths = table[0].map((_, i) => Math.max(...table.map((r) => r[i].length)));
const lines = table.map((r) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));

process.stdout.write(
  [
    `corpus: ${corpus.files} files, ${mb} MiB, ${baselineFacts.lines} lines (${baselineFacts.bad} junk/partial), ${baselineFacts.dbs} SQLite databases with ${baselineFacts.rows} rows, under ${corpus.home} (generated or checked in ${(generateMs / 1000).toFixed(1)} s)`,
    `listed: ${listed.length} sessions warm, ${coldListed.length} cold (sub-agents hidden); medians of ${runs} runs (start-up: ${startupRuns})`,
    `per agent: ${Object.entries(listedPerAgent).map(([agent, count]) => `${agent} ${count}`).join(', ')}`,
    `baseline: node bench/baseline.mjs (readFileSync + JSON.parse of every line of every file; every row of every table of the databases, JSON.parse of every JSON value)`,
    '',
    lines[0],
    '-'.repeat(lines[0].length),
    ...lines.slice(1),
    '',
    `Unchanged poll of the corpus databases, CPU per poll (${polls} polls; baseline: SELECT 1 on an open connection; file agents are watched instead, amp also re-stats its threads every 3 s):`,
    ...corpusPolls.map((p) => `  ${p.agent.padEnd(9)} ${p.unchangedUs.toFixed(1).padStart(6)} µs  baseline ${p.baselineUs.toFixed(2)} µs  (first pass: ${p.events} events)`),
    '',
    `SQLite sources, CPU per poll (node bench/sqlite-poll.mjs ${polls}; baseline: SELECT 1 on an open connection):`,
    ...pollRun.stdout.trimEnd().split('\n').map((line) => `  ${line}`),
    '',
  ].join('\n'),
);
if (missing.length > 0) {
  process.stdout.write(`ERROR: sessions listed per agent differ from the corpus: ${missing.map(([agent, count]) => `${agent} ${listedPerAgent[agent]} (expected ${count})`).join(', ')}\n`);
  process.exitCode = 1;
}
if (listed.length !== coldListed.length) process.stdout.write('WARNING: warm and cold runs listed different numbers of sessions\n');
