/**
 * Start-up cost (issue 11, items 3, 4 and 7): cold and warm discovery of agentwatch next to their
 * anchors, all measured in this run on the same generated corpus (bench/corpus.mjs: realistic
 * line sizes, multi-MB tool outputs, all nine agents):
 *
 * - cold discovery of the Claude part: `agentwatch sessions --all --agent claude --json` without
 *   a discovery cache, against ccusage 20.0.24 (its Rust core, pinned as a devDependency) reading
 *   the same files (`ccusage claude session --json --offline`), wall time and peak RSS;
 *   and, in process (module loading excluded), against the skim floor (read every byte, parse
 *   only the lines that carry state) and read-and-parse-everything (bench/anchors.mjs);
 * - warm start of every agent (a valid cache): in process, against an async stat of every file
 *   (the floor of a stat-only warm start), and the wall time of the one-shot command.
 *
 *   node bench/startup.mjs [--sessions N] [--runs R]
 *
 * Peak RSS of a child comes from GNU time (`/usr/bin/time -f %M`). Prints a table, saves
 * bench/results/startup.json, and prints one JSON line last.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ensureCorpus, refreshCursor } from './corpus.mjs';
import { configHome, dataHome } from './corpus-agents.mjs';
import { arg, median, saveResult } from './util.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, '..', 'dist', 'cli.js');
const ccusage = path.join(here, '..', 'node_modules', '.bin', 'ccusage');
const sessions = arg('sessions', 5000);
const runs = Math.max(1, arg('runs', 3));
const root = path.join(here, `.corpus-startup-${sessions}`);
const corpus = ensureCorpus({ root, sessions, meanKb: 70 });
refreshCursor(corpus);
const claudeList = path.join(root, 'claude-files.txt');
const allList = path.join(root, 'files.txt');
if (!existsSync(claudeList)) throw new Error(`${claudeList} is missing: the corpus generator writes it`);

const env = {
  HOME: corpus.home,
  XDG_CONFIG_HOME: configHome(corpus.home),
  XDG_CACHE_HOME: path.join(root, 'xdg-cache'),
  XDG_DATA_HOME: dataHome(corpus.home),
  CLAUDE_CONFIG_DIR: path.join(corpus.home, '.claude'),
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  NO_COLOR: '1',
  TZ: 'UTC',
};
const cacheDir = path.join(env.XDG_CACHE_HOME, 'agentwatch');
mkdirSync(path.join(env.XDG_CONFIG_HOME, 'agentwatch'), { recursive: true });
writeFileSync(path.join(env.XDG_CONFIG_HOME, 'agentwatch', 'config.json'), JSON.stringify({ window_minutes: 10080, api_salt: 'startup-bench-salt' }));


/** Runs a command under GNU time: wall ms, peak RSS MiB, stdout. */
const timed = (command, args) => {
  const started = performance.now();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', command, ...args], { env, cwd: corpus.home, encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr.slice(-2000)}`);
  const kib = Number(result.stderr.trim().split('\n').at(-1));
  return { ms, rssMiB: kib / 1024, stdout: result.stdout };
};

/** A node script that prints one JSON line with its own in-process timing. */
const inProcess = (script, args) => {
  const result = timed(process.execPath, [path.join(here, script), ...args]);
  return { ...JSON.parse(result.stdout.trim().split('\n').at(-1)), wallMs: result.ms, rssMiB: result.rssMiB };
};

const repeat = (step, before = () => undefined) => {
  const results = [];
  for (let i = 0; i < runs; i += 1) {
    before();
    results.push(step());
  }
  return results;
};
const dropCache = () => rmSync(cacheDir, { recursive: true, force: true });

// Warm the page cache for everyone: every figure below reads from memory, as a second run would.
inProcess('anchors.mjs', ['parse', allList]);

const claudeCold = repeat(() => timed(process.execPath, [cli, 'sessions', '--all', '--agent', 'claude', '--json']), dropCache);
const ccusageRuns = repeat(() => timed(ccusage, ['claude', 'session', '--json', '--offline']));
const claudeColdIn = repeat(() => inProcess('discovery.mjs', ['claude', '--no-cache']));
const skim = repeat(() => inProcess('anchors.mjs', ['skim', claudeList]));
const parseAll = repeat(() => inProcess('anchors.mjs', ['parse', claudeList]));

// Warm start of every agent: one cold run writes the cache, then every run finds it valid.
dropCache();
inProcess('discovery.mjs', []);
const warmIn = repeat(() => inProcess('discovery.mjs', []));
const warmWall = repeat(() => timed(process.execPath, [cli, 'sessions', '--all', '--json']));
const statFloor = repeat(() => inProcess('anchors.mjs', ['stat', allList]));

const listedClaude = JSON.parse(claudeCold.at(-1).stdout).length;
const figures = {
  corpus: { files: corpus.files, mib: Math.round(corpus.bytes / 2 ** 20), claude_files: readFileSync(claudeList, 'utf8').split('\n').filter(Boolean).length, claude_sessions_listed: listedClaude },
  cold_claude_wall_ms: median(claudeCold.map((r) => r.ms)),
  cold_claude_peak_rss_mib: median(claudeCold.map((r) => r.rssMiB)),
  cold_claude_in_process_ms: median(claudeColdIn.map((r) => r.readyMs)),
  warm_all_in_process_ms: median(warmIn.map((r) => r.readyMs)),
  warm_all_wall_ms: median(warmWall.map((r) => r.ms)),
  warm_all_peak_rss_mib: median(warmWall.map((r) => r.rssMiB)),
};
const anchors = {
  ccusage_wall_ms: median(ccusageRuns.map((r) => r.ms)),
  ccusage_peak_rss_mib: median(ccusageRuns.map((r) => r.rssMiB)),
  skim_floor_ms: median(skim.map((r) => r.ms)),
  parse_all_ms: median(parseAll.map((r) => r.ms)),
  stat_floor_ms: median(statFloor.map((r) => r.ms)),
};
const ratios = {
  cold_vs_ccusage_wall: figures.cold_claude_wall_ms / anchors.ccusage_wall_ms,
  cold_rss_vs_ccusage: figures.cold_claude_peak_rss_mib / anchors.ccusage_peak_rss_mib,
  cold_vs_skim_floor: figures.cold_claude_in_process_ms / anchors.skim_floor_ms,
  cold_vs_parse_all: figures.cold_claude_in_process_ms / anchors.parse_all_ms,
  warm_vs_stat_floor: figures.warm_all_in_process_ms / anchors.stat_floor_ms,
};

const f0 = (n) => n.toFixed(0);
const x = (n) => `${n.toFixed(2)}x`;
console.log(`corpus: ${corpus.files} files, ${figures.corpus.mib} MiB (${figures.corpus.claude_files} Claude transcripts, ${listedClaude} Claude sessions listed); medians of ${runs} runs`);
console.log(`  cold, Claude part, wall:       agentwatch ${f0(figures.cold_claude_wall_ms)} ms, ${f0(figures.cold_claude_peak_rss_mib)} MiB peak   ccusage ${f0(anchors.ccusage_wall_ms)} ms, ${f0(anchors.ccusage_peak_rss_mib)} MiB   ${x(ratios.cold_vs_ccusage_wall)} time, ${x(ratios.cold_rss_vs_ccusage)} RSS`);
console.log(`  cold, Claude part, in process: agentwatch ${f0(figures.cold_claude_in_process_ms)} ms   skim floor ${f0(anchors.skim_floor_ms)} ms (${x(ratios.cold_vs_skim_floor)})   parse everything ${f0(anchors.parse_all_ms)} ms (${x(ratios.cold_vs_parse_all)})`);
console.log(`  warm, every agent, in process: agentwatch ${f0(figures.warm_all_in_process_ms)} ms   async stat of every file ${f0(anchors.stat_floor_ms)} ms (${x(ratios.warm_vs_stat_floor)}); the command's wall ${f0(figures.warm_all_wall_ms)} ms, ${f0(figures.warm_all_peak_rss_mib)} MiB peak`);
const result = { figures, anchors, ratios, sessions, runs };
console.log(`  saved to ${saveResult('startup', result)}`);
console.log(JSON.stringify({ name: 'startup', ...result }));
