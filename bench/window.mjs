/**
 * Recency first: how soon each interface has the sessions of the window, next to the floor of
 * listing them (bench/window-floor.mjs: a stat of every file and a read of the files written in
 * the window, spawned the same way), all in this run on one generated corpus (bench/corpus.mjs)
 * whose file times are those of each file's last record, as an agent leaves them:
 *
 * - warm `agentwatch --api` (a full discovery cache): from spawn until `/api/stats` counts every
 *   session of the window, and until `ready` (the whole history read);
 * - `--api` without a cache: the same two times;
 * - one-shot `agentwatch sessions --all --window W --json` without a cache, and with one.
 *
 * The corpus's newest sessions (one in 25) lie in the hour and a half before the start of the
 * hour it is generated in (it is regenerated the next hour); W reaches half an hour further back,
 * 120 to 180 minutes, so the window holds those sessions and almost no others, and its edge lies
 * where sessions are sparse: the few minutes a run lasts move the listing by a session at most.
 * Each build's `--api` waits for the sessions its own cold one-shot listed just before that are
 * still in the window.
 *
 *   node bench/window.mjs [--sessions N] [--runs R] [--dist DIR] [--compare DIR] [--hour ISO]
 *
 * --dist     the build measured (default dist/)
 * --compare  a second build (e.g. an older commit's dist/, kept inside the repository so its
 *            packages resolve) measured in the same run, in turns with the first
 * --hour     the hour the corpus is generated for (an ISO time; default this hour): runs within a
 *            few hours of it reuse one corpus instead of writing a new one each hour
 *
 * Prints a table, saves bench/results/window.json, and prints one JSON line last.
 */
import { Buffer } from 'node:buffer';
import { spawn, spawnSync } from 'node:child_process';
import { pbkdf2Sync } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ensureCorpus, refreshCursor } from './corpus.mjs';
import { homeEnv } from './corpus-agents.mjs';
import { arg, median, saveResult, sleep } from './util.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const option = (name) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const sessions = arg('sessions', 5000);
const runs = Math.max(1, arg('runs', 3));
const builds = [{ name: 'this', dist: path.resolve(option('dist') ?? path.join(here, '..', 'dist')) }];
if (option('compare')) builds.push({ name: 'compare', dist: path.resolve(option('compare')) });
for (const build of builds) if (!existsSync(path.join(build.dist, 'cli.js'))) throw new Error(`${build.dist}/cli.js is missing: run npm run build`);

const HOUR = 3_600_000;
const corpusNow = Math.floor((option('hour') === undefined ? Date.now() : Date.parse(option('hour'))) / HOUR) * HOUR;
const root = path.join(here, `.corpus-window-${sessions}`);
const corpus = ensureCorpus({ root, sessions, meanKb: 70, now: corpusNow });
refreshCursor(corpus);
const allList = path.join(root, 'files.txt');

/**
 * Each file's mtime set to its newest record's time (an agent writes a session's file as it goes:
 * its mtime is its last record's). The generator writes them all at once, which would make every
 * file "recent". Done once per corpus.
 */
const ISO = /"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)"/g;
const TAIL_BYTES = 256 * 1024;
const stampTimes = () => {
  const marker = path.join(root, 'mtimes-stamped');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === String(corpusNow)) return;
  for (const file of readFileSync(allList, 'utf8').split('\n').filter(Boolean)) {
    const size = statSync(file).size;
    const length = Math.min(size, TAIL_BYTES);
    const buffer = Buffer.alloc(length);
    const fd = openSync(file, 'r');
    readSync(fd, buffer, 0, length, size - length);
    closeSync(fd);
    let newest = 0;
    for (const [, stamp] of buffer.toString('utf8').matchAll(ISO)) newest = Math.max(newest, Date.parse(stamp));
    if (newest > 0 && newest <= Date.now()) utimesSync(file, newest / 1000, newest / 1000);
  }
  writeFileSync(marker, String(corpusNow));
};
stampTimes();

const windowMinutes = Math.ceil((Date.now() - corpusNow) / 60_000) + 120;
const env = { ...homeEnv(corpus.home, path.join(root, 'xdg-cache')), CLAUDE_CONFIG_DIR: path.join(corpus.home, '.claude'), TZ: 'UTC' };
const cacheDir = path.join(env.XDG_CACHE_HOME, 'agentwatch');
mkdirSync(path.join(env.XDG_CONFIG_HOME, 'agentwatch'), { recursive: true });
writeFileSync(path.join(env.XDG_CONFIG_HOME, 'agentwatch', 'config.json'), JSON.stringify({ window_minutes: windowMinutes, api_salt: 'window-bench-salt' }));
const dropCache = () => rmSync(cacheDir, { recursive: true, force: true });

/** A command's wall time and stdout. */
const timed = (args) => {
  const started = performance.now();
  const result = spawnSync(process.execPath, args, { env, cwd: env.HOME, encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  const ms = performance.now() - started;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr.slice(-2000)}`);
  return { ms, stdout: result.stdout };
};

const floor = () => {
  const since = Date.now() - windowMinutes * 60_000;
  const { ms, stdout } = timed([path.join(here, 'window-floor.mjs'), allList, String(since)]);
  const inProcess = JSON.parse(stdout.trim());
  return { ...inProcess, inProcessMs: inProcess.ms, ms };
};

const oneShot = (build, window) => {
  const { ms, stdout } = timed([path.join(build.dist, 'cli.js'), 'sessions', '--all', ...(window ? ['--window', String(windowMinutes)] : []), '--json']);
  const listed = JSON.parse(stdout);
  return { ms, listed: listed.length, activity: listed.map((session) => Date.parse(session.last_activity)) };
};

/**
 * How many of a listing's sessions are still in the window now: a run lasts minutes, and the
 * window's edge moves past the odd session meanwhile.
 */
const stillListed = (activity) => activity.filter((at) => at >= Date.now() - windowMinutes * 60_000).length;

const PASSPHRASE = 'window bench passphrase';
const token = pbkdf2Sync(PASSPHRASE, 'window-bench-salt', 600_000, 32, 'sha256').toString('base64url');

/**
 * `agentwatch --api` from spawn: when it listens, when `/api/stats` first counts every session of
 * `activity` (a one-shot listing's last activities) still in the window, when it is ready. Asked
 * every 10 ms; stopped with SIGINT once ready.
 */
const apiRun = async (build, activity) => {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(build.dist, 'cli.js'), '--api', '--host', '127.0.0.1:0'], { env: { ...env, AGENTWATCH_API_PASSPHRASE: PASSPHRASE }, cwd: env.HOME, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  let base;
  while (!(base = /listening on (http:\/\/\S+)/.exec(stderr)?.[1])) {
    if (child.exitCode !== null) throw new Error(`agentwatch --api exited ${child.exitCode}: ${stderr}`);
    if (performance.now() - started > 120_000) throw new Error('agentwatch --api did not listen within 120 s');
    await sleep(5);
  }
  const listeningMs = performance.now() - started;
  let windowMs;
  let readyMs;
  let progressSeen = false;
  while (readyMs === undefined) {
    const stats = await fetch(`${base}/api/stats`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json());
    const at = performance.now() - started;
    if (windowMs === undefined && stats.total_sessions >= stillListed(activity)) windowMs = at;
    if (stats.history && stats.history.read < stats.history.total) progressSeen = true;
    if (stats.ready) readyMs = at;
    if (at > 300_000) throw new Error('agentwatch --api was not ready within 300 s');
    await sleep(10);
  }
  child.kill('SIGINT');
  const code = await exited;
  if (code !== 0) throw new Error(`agentwatch --api exited ${code} after SIGINT: ${stderr.slice(-2000)}`);
  return { listeningMs, windowMs: windowMs ?? readyMs, readyMs, progressSeen };
};

// Warm the page cache: every figure below reads from memory, as a second run would.
timed([path.join(here, 'anchors.mjs'), 'parse', allList]);

const samples = { floor: [] };
for (const build of builds) samples[build.name] = { cold: [], warm: [], apiWarm: [], apiCold: [], full: [] };
let listed;
for (let i = 0; i < runs; i += 1) {
  samples.floor.push(floor());
  for (const build of builds) {
    const s = samples[build.name];
    dropCache();
    const cold = oneShot(build, true);
    s.cold.push(cold);
    const expected = cold.listed;
    listed ??= expected;
    if (expected !== listed) console.warn(`note: ${build.name} listed ${expected} sessions in the window, the first build ${listed}`);
    // A full cache for the warm figures: every session read once.
    dropCache();
    s.full.push(oneShot(build, false));
    s.warm.push(oneShot(build, true));
    s.apiWarm.push(await apiRun(build, cold.activity));
    dropCache();
    s.apiCold.push(await apiRun(build, cold.activity));
  }
}

const floorMs = median(samples.floor.map((r) => r.ms));
const last = samples.floor.at(-1);
const figures = {};
for (const build of builds) {
  const s = samples[build.name];
  figures[build.name] = {
    dist: path.relative(path.join(here, '..'), build.dist),
    oneshot_cold_ms: median(s.cold.map((r) => r.ms)),
    oneshot_warm_ms: median(s.warm.map((r) => r.ms)),
    oneshot_all_cold_ms: median(s.full.map((r) => r.ms)),
    api_warm_listening_ms: median(s.apiWarm.map((r) => r.listeningMs)),
    api_warm_window_ms: median(s.apiWarm.map((r) => r.windowMs)),
    api_warm_ready_ms: median(s.apiWarm.map((r) => r.readyMs)),
    api_cold_listening_ms: median(s.apiCold.map((r) => r.listeningMs)),
    api_cold_window_ms: median(s.apiCold.map((r) => r.windowMs)),
    api_cold_ready_ms: median(s.apiCold.map((r) => r.readyMs)),
    progress_seen: s.apiCold.some((r) => r.progressSeen),
  };
}
const anchors = { floor_wall_ms: floorMs, floor_in_process_ms: median(samples.floor.map((r) => r.inProcessMs)), files: last.files, recent_files: last.recent, recent_mib: last.bytes / 2 ** 20 };
const ratios = {};
for (const build of builds) {
  const f = figures[build.name];
  ratios[build.name] = {
    api_warm_window_vs_floor: f.api_warm_window_ms / floorMs,
    api_cold_window_vs_floor: f.api_cold_window_ms / floorMs,
    oneshot_cold_vs_floor: f.oneshot_cold_ms / floorMs,
    oneshot_warm_vs_floor: f.oneshot_warm_ms / floorMs,
  };
}

const f0 = (n) => n.toFixed(0);
const x = (n) => `${n.toFixed(1)}x`;
console.log(`corpus: ${corpus.files} files, ${Math.round(corpus.bytes / 2 ** 20)} MiB; window ${windowMinutes} min: ${listed} sessions listed, ${last.recent} files written in it; medians of ${runs} runs, builds in turns`);
console.log(`  floor (stat every file, read and parse the ${last.recent} recent ones), wall: ${f0(floorMs)} ms`);
for (const build of builds) {
  const f = figures[build.name];
  const r = ratios[build.name];
  console.log(`  ${build.name} (${f.dist}):`);
  console.log(`    warm --api: listening ${f0(f.api_warm_listening_ms)} ms, window served ${f0(f.api_warm_window_ms)} ms (${x(r.api_warm_window_vs_floor)}), ready ${f0(f.api_warm_ready_ms)} ms`);
  console.log(`    --api without a cache: listening ${f0(f.api_cold_listening_ms)} ms, window served ${f0(f.api_cold_window_ms)} ms (${x(r.api_cold_window_vs_floor)}), ready ${f0(f.api_cold_ready_ms)} ms${f.progress_seen ? ' (progress reported meanwhile)' : ''}`);
  console.log(`    sessions --window ${windowMinutes}: cold ${f0(f.oneshot_cold_ms)} ms (${x(r.oneshot_cold_vs_floor)}), warm ${f0(f.oneshot_warm_ms)} ms (${x(r.oneshot_warm_vs_floor)}); sessions --all (no window), cold: ${f0(f.oneshot_all_cold_ms)} ms`);
}
const result = { figures, anchors, ratios, sessions, runs, window_minutes: windowMinutes, listed };
console.log(`  saved to ${saveResult('window', result)}`);
console.log(JSON.stringify({ name: 'window', ...result }));
