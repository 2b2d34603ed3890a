/**
 * The first discovery pass of agentwatch's sources, timed inside the process (module loading
 * excluded, as in bench/anchors.mjs): the same setup as `agentwatch sessions` (config, sources,
 * pipeline, discovery cache), from start to the frame where every agent is ready, then the cache
 * save on stop. Prints one JSON line: { readyMs, stopMs, sessions, rssMiB }.
 *
 *   node bench/discovery.mjs [agent,agent...] [--no-cache]
 *
 * HOME and XDG_* must point at a corpus (bench/run.mjs sets them), never at the real home.
 */
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = process.env.BENCH_DIST ?? path.join(here, '..', 'dist');
const load = (file) => import(pathToFileURL(path.join(dist, file)).href);
const { loadConfig } = await load('config/load.js');
const { startSourcePipeline } = await load('app/pipeline-setup.js');
const { AGENT_KINDS } = await load('core/agents.js');
const { filter, firstValueFrom } = await import('rxjs');
await load('sources/index.js');

const agentsArg = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
const agents = agentsArg ? agentsArg.split(',') : [...AGENT_KINDS];
// Each source's module loads when it is first subscribed (sources/index.ts): loaded here, before
// the clock starts, so module loading stays outside the timed window as in the anchors.
await Promise.all(agents.map((agent) => load(`sources/${agent}/index.js`)));
const io = { env: process.env, platform: process.platform, cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr };
const loaded = await loadConfig(process.env, { write: true });
const quiet = { info: () => undefined, warn: (m) => process.stderr.write(`${m}\n`), error: (m) => process.stderr.write(`${m}\n`) };

const cpuStarted = process.cpuUsage();
const started = performance.now();
const { pipeline, stop } = await startSourcePipeline(io, loaded, { agents, demo: false, watch: false, log: quiet, cache: !process.argv.includes('--no-cache') });
const frame = await firstValueFrom(pipeline.frame$.pipe(filter((f) => f.state.ready)));
const readyMs = performance.now() - started;
const cpu = process.cpuUsage(cpuStarted);
const readyCpuMs = (cpu.user + cpu.system) / 1000;
const stopStarted = performance.now();
await stop();
const stopMs = performance.now() - stopStarted;
process.stdout.write(`${JSON.stringify({ readyMs, readyCpuMs, stopMs, sessions: frame.state.sessions.size, rssMiB: process.resourceUsage().maxRSS / 1024 })}\n`);
