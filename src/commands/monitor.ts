import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Pipeline } from '../app.js';
import { parseFlags } from '../cli/flags.js';
import { UsageError, type CliIo } from '../cli/io.js';
import type { Loaded } from '../config/load.js';
import { AGENT_KINDS } from '../core/agents.js';
import { describeDiagnostic, severityOf } from '../core/diagnostics.js';
import { asyncScheduler } from 'rxjs';
import type { Ctx, Teardown } from '../core/contracts.js';
import type { Config } from '../config/effective.js';
import type { LiveIndex } from '../search/live.js';
import { parseHostFlag, type ListenAddress } from '../sinks/http/address.js';
import { isLocalAddress } from '../sinks/http/local-address.js';
import { COMMANDS } from '../cli/registry.js';
import { closest } from '../util/closest.js';
import type { WebhookMetrics } from '../sinks/metrics/index.js';
import { loadConfigWithNotices, pickAgents, startSourcePipeline, stderrLogger } from './pipeline-setup.js';
import { createLiveConfig, type LiveConfig } from '../config/live.js';
import { followConfig, liveCtx } from './live-apply.js';
import { compactWhenSettled, processCpuMs } from './compact-when-settled.js';
import { compactHeap } from '../util/long-run-heap.js';

/**
 * `agentwatch [--tui] [--api] [--gui] [--host ADDR] [--agent NAME|all] [--demo]`: load the
 * config, start the one shared pipeline, run the chosen interfaces over it plus the background
 * sinks (webhooks, notifier), and stop everything cleanly on SIGINT/SIGTERM or when an
 * interface ends (the TUI quits).
 *
 * A mode plugs in by adding its runner to MODES; a mode without one is refused with a clear
 * message rather than faked.
 */

export const MONITOR_FLAGS = {
  tui: { type: 'boolean' },
  api: { type: 'boolean' },
  gui: { type: 'boolean' },
  // `--no-open` (with --gui): serve the dashboard without opening a browser.
  open: { type: 'boolean', default: true },
  host: { type: 'string' },
  agent: { type: 'string', choices: ['all', ...AGENT_KINDS] },
  demo: { type: 'boolean' },
} as const;

export type Mode = 'tui' | 'api' | 'gui';

/** What every mode gets: the loaded config, the shared pipeline and the parsed options. */
export interface MonitorLaunch {
  readonly io: CliIo;
  readonly loaded: Loaded;
  readonly ctx: Ctx;
  readonly pipeline: Pipeline;
  /** From `--host`; undefined when absent (127.0.0.1 with the port fallback). */
  readonly address: ListenAddress | undefined;
  /** The live search index GET /api/search and the TUI's `s` answer from (not in --demo). */
  readonly search?: LiveIndex;
  /** The running config: what the Settings panel saves lands here and is applied live. */
  readonly live?: LiveConfig;
  readonly demo?: boolean;
  /** False with `--no-open`: --gui serves the dashboard without opening a browser. */
  readonly open?: boolean;
}

/** A running interface. `done` resolves (with an exit code) when it ends on its own, e.g. the TUI quits. */
export interface RunningMode {
  readonly done: Promise<number>;
  readonly stop: () => Promise<void>;
  /** Set by the API: its base URL, which webhook payloads link to. */
  readonly apiBaseUrl?: string;
  /** Set by the API: where the webhook sink reports for GET /metrics. */
  readonly webhookMetrics?: WebhookMetrics;
}

export interface ModeRunner {
  /** Runs before the pipeline starts: questions and checks that must fail fast (the API passphrase). */
  readonly prepare?: (io: CliIo, loaded: Loaded) => Promise<void>;
  readonly start: (launch: MonitorLaunch) => Promise<RunningMode>;
}

const NOT_BUILT: Record<Mode, string> = {
  tui: 'the terminal UI is not built yet; use --api',
  api: 'the API is not available in this build',
  gui: 'the web dashboard (--gui) is not available in this build; use --api',
};

/** `--api`, or with `dashboard` `--gui`: the same server, which then also says where the dashboard is and opens it. */
const apiMode = (options: { readonly dashboard: boolean } = { dashboard: false }): ModeRunner => {
  let secret: { token: Promise<string>; salt: string } | undefined;
  return {
    prepare: async (io, loaded) => {
      const { prepareApiToken } = await import('../sinks/http/api-mode.js');
      secret = await prepareApiToken(io, loaded);
    },
    start: async (launch) => {
      const { startApi } = await import('../sinks/http/api-mode.js');
      if (!secret) throw new Error('API mode started before prepare');
      const api = await startApi({ ...launch, ...secret, scheduler: launch.ctx.scheduler });
      if (options.dashboard) await (await import('../sinks/http/gui-mode.js')).showDashboard(launch, api.address, await secret.token);
      return { done: new Promise<number>(() => undefined), stop: api.close, apiBaseUrl: api.baseUrl, webhookMetrics: api.webhookMetrics };
    },
  };
};

const tuiMode = (): ModeRunner => ({
  prepare: async (io) => {
    const { prepareTui } = await import('../sinks/tui/launch.js');
    await prepareTui(io);
  },
  start: async (launch) => {
    const { startTui } = await import('../sinks/tui/launch.js');
    return startTui(launch);
  },
});

/** The interfaces this build offers; `undefined` = not built yet (refused, exit 2). */
const MODES: Readonly<Record<Mode, (() => ModeRunner) | undefined>> = {
  tui: tuiMode,
  api: apiMode,
  gui: () => apiMode({ dashboard: true }),
};

/** Pure: the modes the flags ask for; no mode flag means the TUI. */
export const selectModes = (flags: { readonly tui: boolean; readonly api: boolean; readonly gui: boolean }): Mode[] => {
  const modes = (['tui', 'api', 'gui'] as const).filter((mode) => flags[mode]);
  return modes.length === 0 ? ['tui'] : modes;
};

/** Resolves on the first SIGINT or SIGTERM; the listeners are removed by the returned cleanup. */
const onStopSignal = (): { stopped: Promise<string>; dispose: () => void } => {
  let dispose = (): void => undefined;
  const stopped = new Promise<string>((resolve) => {
    const handler = (signal: NodeJS.Signals): void => resolve(signal);
    process.once('SIGINT', handler);
    process.once('SIGTERM', handler);
    dispose = () => {
      process.removeListener('SIGINT', handler);
      process.removeListener('SIGTERM', handler);
    };
  });
  return { stopped, dispose };
};

export const run = async (io: CliIo): Promise<number> => {
  const { flags, input } = parseFlags(io.argv, MONITOR_FLAGS, 'agentwatch');
  if (input.length > 0) {
    // A command after a flag (`agentwatch --api limts`): the same suggestion as in first place.
    const word = input[0] ?? '';
    const guess = closest(word, Object.keys(COMMANDS));
    throw new UsageError(`unknown command "${word}"${guess ? ` (did you mean "agentwatch ${guess}"?)` : ''}`);
  }
  const modes = selectModes(flags);
  if (!flags.open && !modes.includes('gui')) throw new UsageError('--no-open goes with --gui', 'Run agentwatch --help');
  // --gui serves the API as well: one server for `--gui --api`.
  const runners = modes.filter((mode) => !(mode === 'api' && modes.includes('gui'))).map((mode) => {
    const make = MODES[mode];
    if (!make) throw new UsageError(NOT_BUILT[mode]);
    return make();
  });
  let address: ListenAddress | undefined;
  if (flags.host !== undefined) {
    const parsed = parseHostFlag(flags.host);
    if ('error' in parsed) throw new UsageError(parsed.error);
    // A name that does not resolve is a typo, said as one (not a raw getaddrinfo error at listen);
    // an address of another machine too (not a raw EADDRNOTAVAIL once the sources are running).
    const hint = 'Use an address of this machine, e.g. --host 127.0.0.1:7421';
    let addresses = [parsed.host];
    if (isIP(parsed.host) === 0) {
      try {
        addresses = (await lookup(parsed.host, { all: true })).map((found) => found.address);
      } catch {
        throw new UsageError(`Invalid value for --host: ${JSON.stringify(flags.host)} (no such host name: ${parsed.host})`, hint);
      }
    }
    if (!addresses.some((address) => isLocalAddress(address))) {
      const resolved = isIP(parsed.host) === 0 ? ` (${parsed.host} is ${addresses.join(', ')})` : '';
      throw new UsageError(`Invalid value for --host: ${JSON.stringify(flags.host)} is not an address of this machine${resolved}`, hint);
    }
    address = parsed;
  }

  const loaded = await loadConfigWithNotices(io);
  const agents = pickAgents(io, loaded, flags.agent, 'refuse');
  for (const runner of runners) await runner.prepare?.(io, loaded);

  const log = stderrLogger(io, { info: true });
  // The search index follows what the sources read (no second read of any file); the API and the TUI search it.
  const search = flags.demo ? undefined : (await import('../search/live.js')).createLiveIndex(io, loaded, asyncScheduler, log);
  // The sources start once the interfaces are up: the API answers during the first discovery.
  const sources = await startSourcePipeline(io, loaded, { agents, demo: flags.demo, watch: true, log, deferSources: true, ...(search ? { tap: search.tap } : {}) });
  const { ctx, pipeline } = sources;
  search?.follow(pipeline.state$);
  const live = createLiveConfig(loaded.config);
  const signal = onStopSignal();
  const running: RunningMode[] = [];
  const background: Teardown[] = [];
  // Silence is a bug: what keeps sessions from being read (an unreadable directory, a locked or
  // corrupt database) is logged once per distinct problem; `agentwatch doctor` lists the rest.
  const reported = new Set<string>();
  const attention = pipeline.diagnostics$.subscribe((d) => {
    const line = describeDiagnostic(d);
    if (severityOf(d.code) !== 'attention' || reported.has(line)) return;
    reported.add(line);
    ctx.log.warn(`${line} (agentwatch doctor for details)`);
  });
  background.push(() => attention.unsubscribe());
  try {
    for (const runner of runners) {
      // NOTE: a start takes a moment (modules, the token, listening); a signal meanwhile must not be swallowed.
      const starting = runner.start({ io, loaded, ctx, pipeline, address, live, demo: flags.demo, open: flags.open, ...(search ? { search } : {}) });
      const started = await Promise.race([starting, signal.stopped.then(() => undefined)]);
      if (!started) {
        void starting.then((mode) => mode.stop()).catch(() => undefined);
        return 0;
      }
      running.push(started);
    }
    sources.begin();
    // A monitor runs all day: once the first discovery has settled, give back what it allocated.
    const settled = compactWhenSettled(pipeline.state$, { compact: compactHeap, cpuMs: processCpuMs, scheduler: ctx.scheduler });
    background.push(() => settled.unsubscribe());
    const apiBaseUrl = running.find((mode) => mode.apiBaseUrl)?.apiBaseUrl;
    const webhookMetrics = running.find((mode) => mode.webhookMetrics)?.webhookMetrics;
    const { startWebhooks } = await import('../sinks/webhook/index.js');
    const { startNotifier } = await import('../sinks/notify/index.js');
    // `--demo` never delivers webhooks or desktop notifications (PRODUCT.md 2).
    // Sinks read the live config (exclusions saved in the Settings panel apply to the next transition).
    const sinkCtx = liveCtx(ctx, live);
    if (!flags.demo) {
      background.push(
        startWebhooks(pipeline.transitions$, sinkCtx, { invalid: [], ...(apiBaseUrl ? { apiBaseUrl } : {}), ...(webhookMetrics ? { metrics: webhookMetrics } : {}) }),
      );
    }
    // Desktop notifications come from every long-running mode when `notifications` is on (PRODUCT.md 7).
    // Saved settings follow live: the listing's window, exclusions and agents; the notifier restarts.
    background.push(
      followConfig(live, pipeline, {
        picked: agents,
        ...(flags.demo ? {} : { startNotifier: (config: Config) => startNotifier(pipeline.transitions$, { ...ctx, config }) }),
      }),
    );
    if (flags.demo) ctx.log.info('--demo: sample sessions; webhooks and desktop notifications are off');
    // Headless, nobody sees an empty list: say it once after the first discovery, with where it looked.
    if (!modes.includes('tui') && !flags.demo) {
      const [{ watchHeadlessEmpty }, { agentLocations }] = await Promise.all([import('./headless-empty.js'), import('./sessions-locations.js')]);
      const searched = pipeline.agents.flatMap((agent) => agentLocations(agent, loaded.config, io.env, io.platform));
      const empty = watchHeadlessEmpty(pipeline.state$, ctx.now, pipeline.visibility, searched, (line) => ctx.log.info(line));
      background.push(() => empty.unsubscribe());
    }
    const ended = await Promise.race([signal.stopped.then(() => 0), ...running.map((mode) => mode.done)]);
    return ended;
  } finally {
    signal.dispose();
    // Interfaces first (SSE streams end, sockets close), then the sinks flush, then the sources stop
    // (the discovery cache saves a last time first).
    await Promise.allSettled(running.map((mode) => mode.stop()));
    await Promise.allSettled(background.map(async (teardown) => teardown()));
    await sources.stop();
    await search?.close();
  }
};
