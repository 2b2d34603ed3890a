/**
 * `npm run bench`: every benchmark, each printing its figures next to anchors measured in the same
 * run, and saving them to bench/results/<name>.json with the machine. Suites run one after the
 * other (never in parallel: they measure CPU and time).
 *
 *   npm run bench [-- --only startup,window,idle,sse,api,gui,discovery,soak,map] [--sessions N] [--quick] [--summary]
 *
 * --sessions N  claude/codex/pi transcripts of the generated corpus (plus N/20 of every other
 *               agent): 7700 (about 10,000 sessions) for idle and SSE, 5000 for start-up by default
 * --quick       small and short: 1,000 sessions, 15 s windows, one run each (to try it out)
 * --summary     only print the summary table of the saved results
 *
 * Corpora are generated under bench/.corpus-* and kept for later runs (regenerated when the
 * generator changes). The last section prints one summary table from the saved results.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { machine } from './util.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const option = (name) => {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? undefined : argv[at + 1];
};
const quick = argv.includes('--quick');
const sessionsArg = option('sessions');
const sized = (fallback) => String(sessionsArg ?? (quick ? 1000 : fallback));

const SUITES = {
  startup: ['startup.mjs', '--sessions', sized(5000), '--runs', quick ? '1' : '3'],
  window: ['window.mjs', '--sessions', sized(5000), '--runs', quick ? '1' : '3'],
  idle: ['idle-cpu.mjs', '--sessions', sized(7700), '--seconds', quick ? '15' : '60', '--settle', quick ? '15' : '60'],
  sse: ['sse-patch.mjs', '--sessions', sized(7700), '--appends', quick ? '100' : '1000'],
  api: ['api.mjs', '--corpus', 'bench/.corpus-idle', '--seconds', quick ? '1' : '3', '--rounds', quick ? '1' : '3'],
  gui: ['gui.mjs', '--sessions', '1000', '--runs', quick ? '1' : '3', '--updates', quick ? '5' : '20'],
  discovery: ['discovery-suite.mjs'],
  soak: ['soak.mjs', '--sessions', sized(7700), '--minutes', quick ? '2' : '4'],
  map: ['persistent-map.mjs', '--rounds', quick ? '3' : '7'],
  cost: ['cost.mjs'],
};
// --summary: print the table of the saved results without running anything.
const only = argv.includes('--summary') ? [] : (option('only')?.split(',') ?? Object.keys(SUITES));
const unknown = only.filter((name) => !(name in SUITES));
if (unknown.length > 0) throw new Error(`unknown suite ${unknown.join(', ')} (suites: ${Object.keys(SUITES).join(', ')})`);

const failed = [];
for (const name of only) {
  const [script, ...args] = SUITES[name];
  console.log(`\n== ${name}: node bench/${script} ${args.join(' ')}`);
  const env = name === 'discovery' && quick ? { ...process.env, BENCH_SIZE: 'small', BENCH_RUNS: '1' } : process.env;
  const run = spawnSync(process.execPath, [path.join(here, script), ...args], { stdio: 'inherit', env });
  if (run.status !== 0) failed.push(name);
}

const read = (name) => {
  const file = path.join(here, 'results', `${name}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
};
const rows = [];
const startup = read('startup');
if (startup) {
  const { figures: f, anchors: a, ratios: r } = startup;
  rows.push(['cold discovery, Claude part (wall)', `${f.cold_claude_wall_ms.toFixed(0)} ms`, `ccusage ${a.ccusage_wall_ms.toFixed(0)} ms`, `${r.cold_vs_ccusage_wall.toFixed(2)}x`]);
  rows.push(['cold discovery, peak RSS', `${f.cold_claude_peak_rss_mib.toFixed(0)} MiB`, `ccusage ${a.ccusage_peak_rss_mib.toFixed(0)} MiB`, `${r.cold_rss_vs_ccusage.toFixed(2)}x`]);
  rows.push(['cold discovery, in process', `${f.cold_claude_in_process_ms.toFixed(0)} ms`, `skim floor ${a.skim_floor_ms.toFixed(0)} ms`, `${r.cold_vs_skim_floor.toFixed(2)}x`]);
  rows.push(['warm start, every agent', `${f.warm_all_in_process_ms.toFixed(0)} ms`, `stat floor ${a.stat_floor_ms.toFixed(0)} ms`, `${r.warm_vs_stat_floor.toFixed(2)}x`]);
  if (a.restore_floor_ms) rows.push(['warm start, against the restore floor', `${f.warm_all_in_process_ms.toFixed(0)} ms`, `stat + parse every cache row ${a.restore_floor_ms.toFixed(0)} ms`, `${r.warm_vs_restore_floor.toFixed(2)}x`]);
  if (f.stop_during_discovery_ms) rows.push(['--api stopped (SIGINT) during its first discovery', `${f.stop_during_discovery_ms.toFixed(0)} ms to exit`, `once idle ${a.stop_idle_ms.toFixed(0)} ms`, `${r.stop_during_discovery_vs_idle.toFixed(2)}x`]);
  if (f.empty_home_wall_ms) rows.push(['the command on an empty HOME (wall)', `${f.empty_home_wall_ms.toFixed(0)} ms`, `ccusage ${a.ccusage_wall_ms.toFixed(0)} ms (whole run)`, `${(f.empty_home_wall_ms / a.ccusage_wall_ms).toFixed(2)}x`]);
  if (a.skim_two_processes_wall_ms) rows.push(['skim floor split over two processes', `${a.skim_two_processes_wall_ms.toFixed(0)} ms`, `one process ${a.skim_one_process_wall_ms.toFixed(0)} ms`, `${r.skim_two_vs_one_process.toFixed(2)}x`]);
  if (a.parse_two_processes_wall_ms) rows.push(['parse everything split over two processes', `${a.parse_two_processes_wall_ms.toFixed(0)} ms`, `one process ${a.parse_one_process_wall_ms.toFixed(0)} ms`, `${r.parse_two_vs_one_process.toFixed(2)}x`]);
}
const window = read('window');
if (window?.figures.this) {
  const { figures: { this: f }, anchors: a, ratios: { this: r } } = window;
  const floor = `stat all + read recent ${a.floor_wall_ms.toFixed(0)} ms`;
  rows.push([`warm --api: the window's ${window.listed} sessions served`, `${f.api_warm_window_ms.toFixed(0)} ms`, floor, `${r.api_warm_window_vs_floor.toFixed(2)}x`]);
  rows.push(['--api without a cache: the window served', `${f.api_cold_window_ms.toFixed(0)} ms`, floor, `${r.api_cold_window_vs_floor.toFixed(2)}x`]);
  rows.push([`sessions --window ${window.window_minutes}, cold`, `${f.oneshot_cold_ms.toFixed(0)} ms`, floor, `${r.oneshot_cold_vs_floor.toFixed(2)}x`]);
}
const idle = read('idle-cpu');
if (idle) {
  const f = idle.figures;
  const chokidar = idle.anchors['chokidar alone, same trees'] ?? Object.values(idle.anchors)[0];
  const bare = idle.anchors['bare node:http server, first answer'];
  rows.push([`idle --api, ${f.files} files (steady)`, `${f.cpuPercent.toFixed(2)} % CPU`, `chokidar ${chokidar.cpuPercent.toFixed(2)} %`, '']);
  rows.push(['idle --api, RSS', `${f.rssMiB.toFixed(0)} MiB`, `chokidar ${chokidar.rssMiB.toFixed(0)} MiB`, `${(f.rssMiB / chokidar.rssMiB).toFixed(2)}x`]);
  if (f.coldStart) rows.push(['idle --api after a first start without cache, RSS', `${f.coldStart.rssMiB.toFixed(0)} MiB`, `chokidar ${chokidar.rssMiB.toFixed(0)} MiB`, `${(f.coldStart.rssMiB / chokidar.rssMiB).toFixed(2)}x`]);
  if (f.firstAnswerMs) {
    const anchor = bare ? `bare node:http ${bare.firstAnswerMs} ms; discovery ${f.readyMs} ms` : `discovery ${f.readyMs} ms`;
    rows.push(['API answers after start', `${f.firstAnswerMs} ms`, anchor, bare ? `${(f.firstAnswerMs / bare.firstAnswerMs).toFixed(2)}x` : '']);
  }
}
const sse = read('sse-patch');
if (sse) rows.push(['append -> SSE patch p95', `${sse.figures.p95} ms (${sse.figures.frameKiB} KiB)`, `update ${sse.anchors.update.p95} ms (${sse.anchors.update.frameKiB} KiB)`, `${(sse.figures.p95 / sse.anchors.update.p95).toFixed(2)}x`]);
const api = read('api');
if (api) rows.push([`GET /api/sessions (${api.figures.sessions} listed)`, `${api.figures.list_rps.toFixed(0)} req/s`, `pre-serialised ${api.anchors.preserialised_rps.toFixed(0)} req/s`, `${api.figures.list_vs_preserialised.toFixed(2)}x`]);
if (api?.figures.metrics_scrape_cpu_us) rows.push(['GET /metrics, server CPU per scrape', `${(api.figures.metrics_scrape_cpu_us / 1000).toFixed(1)} ms`, `GET /api/sessions ${(api.figures.cpuUsPerRequest / 1000).toFixed(1)} ms`, `${api.figures.metrics_scrape_vs_list_cpu.toFixed(1)}x`]);
const gui = read('gui');
if (gui) {
  rows.push(['dashboard first paint (1,000)', `${gui.figures.first_paint_ms} ms`, `static page ${gui.anchors.static_page_paint_ms} ms`, `${gui.anchors.first_paint_vs_static}x`]);
  rows.push(['dashboard patch -> frame p50', `${gui.figures.patch_to_frame_ms_p50} ms`, `full re-render ${gui.anchors.full_grid_rerender_ms} ms`, '']);
}
const soak = read('soak');
if (soak) {
  const { figures: f, anchors: a } = soak;
  rows.push([`busy --api, ${f.minutes} min, ${f.lines_per_second.toFixed(0)} appends/s: live heap after`, `${f.after_heap_live_mib.toFixed(0)} MiB`, `idle before ${a.idle_heap_live_mib.toFixed(0)} MiB`, `${(f.after_heap_live_mib / a.idle_heap_live_mib).toFixed(2)}x`]);
  rows.push(['busy --api: heap growth, second half', `${f.heap_growth_second_half_mib_per_hour.toFixed(1)} MiB/h`, `RSS ${f.rss_growth_second_half_mib_per_hour.toFixed(1)} MiB/h`, '']);
}
const map = read('persistent-map');
if (map) {
  const { figures: f, anchors: a } = map;
  const cow = a['Map, copied on write'];
  rows.push([`sessions map (${map.size.toLocaleString('en')}): set one key, both kept`, `${f.setOne.toFixed(1)} µs`, `Map copied on write ${cow.setOne.toFixed(0)} µs`, `${(f.setOne / cow.setOne).toFixed(4)}x`]);
  rows.push(['sessions map: iterate every entry (forEach)', `${f.forEach.toFixed(0)} µs`, `Map ${cow.forEach.toFixed(0)} µs`, `${(f.forEach / cow.forEach).toFixed(2)}x`]);
}
if (rows.length > 0) {
  const head = ['measure', 'agentwatch', 'anchor (same run)', 'ratio'];
  const widths = head.map((_, i) => Math.max(head[i].length, ...rows.map((row) => row[i].length)));
  const line = (row) => `| ${row.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  const table = [line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
  console.log(`\nSummary (bench/results/*.json; ${machine().cpu}, ${machine().cores} cores, Node ${machine().node}):\n${table}`);
  writeFileSync(path.join(here, 'results', 'summary.md'), `${table}\n`);
}
if (failed.length > 0) {
  console.log(`\nfailed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
