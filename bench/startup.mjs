/**
 * Start-up cost: cold and warm discovery of agentwatch next to their
 * anchors, all measured in this run on the same generated corpus (bench/corpus.mjs: realistic
 * line sizes, multi-MB tool outputs, all nine agents):
 *
 * - cold discovery of the Claude part: `agentwatch sessions --all --agent claude --json` without
 *   a discovery cache, against ccusage 20.0.24 (its Rust core, pinned as a devDependency) reading
 *   the same files (`ccusage claude session --json --offline`), wall time and peak RSS;
 *   and, in process (module loading excluded), against the skim floor (read every byte, parse
 *   only the lines that carry state) and read-and-parse-everything (bench/anchors.mjs); the skim
 *   floor in one process next to the same work split over two processes at once (does a second
 *   thread pay on this machine?);
 * - warm start of every agent (a valid cache): in process, against an async stat of every file
 *   (the floor of a stat-only warm start) and against that stat plus reading and parsing every
 *   row of the cache (the floor of a restore, bench/anchors.mjs), and the wall time of the
 *   one-shot command;
 * - a stop during the first discovery: `agentwatch --api` started without a cache gets SIGINT
 *   while it still reads, and the time to its exit is set against the same stop once it idles;
 *   meanwhile `/api/auth` is asked again and again, and the longest wait for an answer is kept.
 *
 *   node bench/startup.mjs [--sessions N] [--runs R]
 *
 * Peak RSS of a child comes from GNU time (`/usr/bin/time -f %M`). Prints a table, saves
 * bench/results/startup.json, and prints one JSON line last.
 */
import { spawn, spawnSync } from 'node:child_process';
import { pbkdf2Sync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ensureCorpus, refreshCursor } from './corpus.mjs';
import { homeEnv } from './corpus-agents.mjs';
import { arg, median, saveResult, sleep } from './util.mjs';

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

const env = { ...homeEnv(corpus.home, path.join(root, 'xdg-cache')), CLAUDE_CONFIG_DIR: path.join(corpus.home, '.claude'), TZ: 'UTC' };
const cacheDir = path.join(env.XDG_CACHE_HOME, 'agentwatch');
mkdirSync(path.join(env.XDG_CONFIG_HOME, 'agentwatch'), { recursive: true });
writeFileSync(path.join(env.XDG_CONFIG_HOME, 'agentwatch', 'config.json'), JSON.stringify({ window_minutes: 10080, api_salt: 'startup-bench-salt' }));


/** Runs a command under GNU time: wall ms, peak RSS MiB, stdout. */
const timed = (command, args, on = env) => {
  const started = performance.now();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', command, ...args], { env: on, cwd: on.HOME, encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
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

/**
 * An anchor's work split over two processes at once (each half of the Claude files), next to one
 * process doing all of it: what two reader threads could reach on this machine. Where the split
 * is no faster, reading and parsing are memory-bound here and a worker pool cannot pay.
 * Both the skim floor and parse-everything (which allocates as agentwatch's reader does).
 */
const claudeFiles = readFileSync(claudeList, 'utf8').split('\n').filter(Boolean);
const halves = [0, 1].map((i) => {
  const file = path.join(root, `claude-files-half-${i}.txt`);
  writeFileSync(file, claudeFiles.filter((_, at) => at % 2 === i).join('\n'));
  return file;
});
const halvesInParallel = async (mode) => {
  const started = performance.now();
  await Promise.all(
    halves.map(
      (list) =>
        new Promise((resolve, reject) => {
          const child = spawn(process.execPath, [path.join(here, 'anchors.mjs'), mode, list], { env, stdio: 'ignore' });
          child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`anchors.mjs ${mode} exited ${code}`))));
        }),
    ),
  );
  return { ms: performance.now() - started };
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

// agentwatch's cold command and ccusage in turns (each round sees the same machine), five rounds:
// on a shared VM a figure of three runs taken minutes apart moved the ratio by a tenth.
const claudeCold = [];
const ccusageRuns = [];
for (let i = 0; i < Math.max(runs, 5); i += 1) {
  dropCache();
  claudeCold.push(timed(process.execPath, [cli, 'sessions', '--all', '--agent', 'claude', '--json']));
  ccusageRuns.push(timed(ccusage, ['claude', 'session', '--json', '--offline']));
}
// What the command costs before it reads anything: Node, module loading, config, an empty listing.
const emptyHome = path.join(root, 'empty-home');
mkdirSync(emptyHome, { recursive: true });
const emptyEnv = { ...env, ...homeEnv(emptyHome, path.join(emptyHome, '.cache')), CLAUDE_CONFIG_DIR: path.join(emptyHome, '.claude') };
const emptyRuns = repeat(() => timed(process.execPath, [cli, 'sessions', '--all', '--agent', 'claude', '--json'], emptyEnv));
const claudeColdIn = repeat(() => inProcess('discovery.mjs', ['claude', '--no-cache']));
const skim = repeat(() => inProcess('anchors.mjs', ['skim', claudeList]));
const parseAll = repeat(() => inProcess('anchors.mjs', ['parse', claudeList]));
const oneProcess = (mode) => repeat(() => timed(process.execPath, [path.join(here, 'anchors.mjs'), mode, claudeList]));
const twoProcesses = async (mode) => {
  const results = [];
  for (let i = 0; i < runs; i += 1) results.push(await halvesInParallel(mode));
  return results;
};
const skimOneProcess = oneProcess('skim');
const skimTwoProcesses = await twoProcesses('skim');
const parseOneProcess = oneProcess('parse');
const parseTwoProcesses = await twoProcesses('parse');

// Warm start of every agent: one cold run writes the cache, then every run finds it valid.
dropCache();
inProcess('discovery.mjs', []);
// The warm start and its floors take tens of milliseconds, where a busy neighbour moves a figure
// by a third: they are sampled in turns (each round sees the same machine) and more often.
const warmIn = [];
const statFloor = [];
const restoreFloor = [];
for (let i = 0; i < Math.max(runs, 7); i += 1) {
  warmIn.push(inProcess('discovery.mjs', []));
  statFloor.push(inProcess('anchors.mjs', ['stat', allList]));
  restoreFloor.push(inProcess('anchors.mjs', ['restore', allList, path.join(cacheDir, 'discovery.sqlite')]));
}
const warmWall = repeat(() => timed(process.execPath, [cli, 'sessions', '--all', '--json']));

/**
 * `agentwatch --api` on the corpus, stopped with SIGINT `afterMs` after it listens, or (with
 * `afterMs` undefined) a second after its first discovery is done. `/api/auth` is asked in a loop
 * meanwhile; `/api/stats` says whether the discovery was still under way at the signal. The stop's
 * time runs from the signal to the process's exit.
 */
const API_PASSPHRASE = 'startup bench passphrase';
const apiToken = pbkdf2Sync(API_PASSPHRASE, 'startup-bench-salt', 600_000, 32, 'sha256').toString('base64url');
const stopRun = async (afterMs) => {
  const child = spawn(process.execPath, [cli, '--api', '--host', '127.0.0.1:0'], { env: { ...env, AGENTWATCH_API_PASSPHRASE: API_PASSPHRASE }, cwd: env.HOME, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  let base;
  while (!(base = /listening on (http:\/\/\S+)/.exec(stderr)?.[1])) {
    if (child.exitCode !== null) throw new Error(`agentwatch --api exited ${child.exitCode}: ${stderr}`);
    await sleep(10);
  }
  const listening = performance.now();
  const ready = () => fetch(`${base}/api/stats`, { headers: { authorization: `Bearer ${apiToken}` } }).then((r) => r.json()).then((stats) => stats.ready === true);
  let readyAt;
  const waits = [];
  for (;;) {
    const now = performance.now();
    if (afterMs !== undefined && now - listening >= afterMs) break;
    if (afterMs === undefined && readyAt === undefined && (await ready())) readyAt = performance.now();
    if (readyAt !== undefined && now - readyAt >= 1000) break;
    const asked = performance.now();
    await fetch(`${base}/api/auth`).then((r) => r.arrayBuffer());
    waits.push(performance.now() - asked);
  }
  const discovering = !(await ready());
  const signalled = performance.now();
  child.kill('SIGINT');
  const code = await exited;
  if (code !== 0) throw new Error(`agentwatch --api exited ${code} after SIGINT: ${stderr.slice(-2000)}`);
  return { stopMs: performance.now() - signalled, longestAuthWaitMs: Math.max(...waits), discovering };
};
const stopMidDiscovery = [];
for (let i = 0; i < runs; i += 1) {
  dropCache();
  stopMidDiscovery.push(await stopRun(1500));
}
const stopIdle = [];
for (let i = 0; i < runs; i += 1) stopIdle.push(await stopRun(undefined));

const listedClaude = JSON.parse(claudeCold.at(-1).stdout).length;
const figures = {
  corpus: { files: corpus.files, mib: Math.round(corpus.bytes / 2 ** 20), claude_files: readFileSync(claudeList, 'utf8').split('\n').filter(Boolean).length, claude_sessions_listed: listedClaude },
  cold_claude_wall_ms: median(claudeCold.map((r) => r.ms)),
  cold_claude_peak_rss_mib: median(claudeCold.map((r) => r.rssMiB)),
  cold_claude_in_process_ms: median(claudeColdIn.map((r) => r.readyMs)),
  empty_home_wall_ms: median(emptyRuns.map((r) => r.ms)),
  warm_all_in_process_ms: median(warmIn.map((r) => r.readyMs)),
  warm_all_wall_ms: median(warmWall.map((r) => r.ms)),
  warm_all_peak_rss_mib: median(warmWall.map((r) => r.rssMiB)),
  stop_during_discovery_ms: median(stopMidDiscovery.map((r) => r.stopMs)),
  stop_during_discovery_still_reading: stopMidDiscovery.filter((r) => r.discovering).length,
  longest_auth_wait_during_discovery_ms: median(stopMidDiscovery.map((r) => r.longestAuthWaitMs)),
};
const anchors = {
  ccusage_wall_ms: median(ccusageRuns.map((r) => r.ms)),
  ccusage_peak_rss_mib: median(ccusageRuns.map((r) => r.rssMiB)),
  skim_floor_ms: median(skim.map((r) => r.ms)),
  parse_all_ms: median(parseAll.map((r) => r.ms)),
  skim_one_process_wall_ms: median(skimOneProcess.map((r) => r.ms)),
  skim_two_processes_wall_ms: median(skimTwoProcesses.map((r) => r.ms)),
  parse_one_process_wall_ms: median(parseOneProcess.map((r) => r.ms)),
  parse_two_processes_wall_ms: median(parseTwoProcesses.map((r) => r.ms)),
  stat_floor_ms: median(statFloor.map((r) => r.ms)),
  restore_floor_ms: median(restoreFloor.map((r) => r.ms)),
  stop_idle_ms: median(stopIdle.map((r) => r.stopMs)),
  longest_auth_wait_idle_ms: median(stopIdle.map((r) => r.longestAuthWaitMs)),
};
const ratios = {
  cold_vs_ccusage_wall: figures.cold_claude_wall_ms / anchors.ccusage_wall_ms,
  cold_rss_vs_ccusage: figures.cold_claude_peak_rss_mib / anchors.ccusage_peak_rss_mib,
  cold_vs_skim_floor: figures.cold_claude_in_process_ms / anchors.skim_floor_ms,
  cold_vs_parse_all: figures.cold_claude_in_process_ms / anchors.parse_all_ms,
  warm_vs_stat_floor: figures.warm_all_in_process_ms / anchors.stat_floor_ms,
  warm_vs_restore_floor: figures.warm_all_in_process_ms / anchors.restore_floor_ms,
  skim_two_vs_one_process: anchors.skim_two_processes_wall_ms / anchors.skim_one_process_wall_ms,
  parse_two_vs_one_process: anchors.parse_two_processes_wall_ms / anchors.parse_one_process_wall_ms,
  stop_during_discovery_vs_idle: figures.stop_during_discovery_ms / anchors.stop_idle_ms,
};

const f0 = (n) => n.toFixed(0);
const x = (n) => `${n.toFixed(2)}x`;
console.log(`corpus: ${corpus.files} files, ${figures.corpus.mib} MiB (${figures.corpus.claude_files} Claude transcripts, ${listedClaude} Claude sessions listed); medians of ${runs} runs (cold command and ccusage: ${claudeCold.length}, in turns; the warm start and its floors: ${warmIn.length}, in turns)`);
console.log(`  cold, Claude part, wall:       agentwatch ${f0(figures.cold_claude_wall_ms)} ms, ${f0(figures.cold_claude_peak_rss_mib)} MiB peak   ccusage ${f0(anchors.ccusage_wall_ms)} ms, ${f0(anchors.ccusage_peak_rss_mib)} MiB   ${x(ratios.cold_vs_ccusage_wall)} time, ${x(ratios.cold_rss_vs_ccusage)} RSS`);
console.log(`  the same command on an empty HOME (Node, modules, config): ${f0(figures.empty_home_wall_ms)} ms wall`);
console.log(`  cold, Claude part, in process: agentwatch ${f0(figures.cold_claude_in_process_ms)} ms   skim floor ${f0(anchors.skim_floor_ms)} ms (${x(ratios.cold_vs_skim_floor)})   parse everything ${f0(anchors.parse_all_ms)} ms (${x(ratios.cold_vs_parse_all)})`);
console.log(`  split over two processes at once (what two reader threads could reach here): skim floor ${f0(anchors.skim_one_process_wall_ms)} -> ${f0(anchors.skim_two_processes_wall_ms)} ms (${x(ratios.skim_two_vs_one_process)}), parse everything ${f0(anchors.parse_one_process_wall_ms)} -> ${f0(anchors.parse_two_processes_wall_ms)} ms (${x(ratios.parse_two_vs_one_process)})`);
console.log(`  warm, every agent, in process: agentwatch ${f0(figures.warm_all_in_process_ms)} ms   async stat of every file ${f0(anchors.stat_floor_ms)} ms (${x(ratios.warm_vs_stat_floor)})   stat + read and parse every cache row ${f0(anchors.restore_floor_ms)} ms (${x(ratios.warm_vs_restore_floor)}); the command's wall ${f0(figures.warm_all_wall_ms)} ms, ${f0(figures.warm_all_peak_rss_mib)} MiB peak`);
console.log(`  stop (SIGINT) of --api during its first discovery: ${f0(figures.stop_during_discovery_ms)} ms to exit (${figures.stop_during_discovery_still_reading} of ${runs} still reading at the signal)   once idle ${f0(anchors.stop_idle_ms)} ms (${x(ratios.stop_during_discovery_vs_idle)}); longest wait for /api/auth meanwhile ${f0(figures.longest_auth_wait_during_discovery_ms)} ms (idle: ${f0(anchors.longest_auth_wait_idle_ms)} ms)`);
const result = { figures, anchors, ratios, sessions, runs };
console.log(`  saved to ${saveResult('startup', result)}`);
console.log(JSON.stringify({ name: 'startup', ...result }));
