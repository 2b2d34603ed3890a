import type { Loaded } from '../config/load.js';
import type { AgentKind } from '../core/agents.js';
import type { Logger } from '../core/contracts.js';
import { UsageError, type CliIo } from '../core/io.js';
import type { ListenAddress } from '../sinks/http/address.js';
import type { PreparedApi } from './modes/api-door.js';
import type { Mode, ModeRunner, RunningMode } from './contracts.js';
import { stderrLogger } from './config-setup.js';

/**
 * The monitor's wiring: prepare the chosen interfaces, start the one shared pipeline, run the
 * interfaces over it plus the background sinks (webhooks, notifier), and stop everything cleanly
 * on SIGINT/SIGTERM or when an interface ends (the TUI quits).
 *
 * A mode plugs in by adding its runner to MODES; a mode without one is refused with a clear
 * message rather than faked.
 *
 * Only what comes before the API's socket listens is imported statically; rxjs, the pipeline and
 * the sources load after it, so the API answers during start-up.
 */

const NOT_BUILT: Record<Mode, string> = {
  tui: 'the terminal UI is not built yet; use --api',
  api: 'the API is not available in this build',
  gui: 'the web dashboard (--gui) is not available in this build; use --api',
};

/** `--api`, or with `dashboard` `--gui`: the same server, which then also says where the dashboard is and opens it. */
const apiMode = (options: { readonly dashboard: boolean } = { dashboard: false }): ModeRunner => {
  let prepared: PreparedApi | undefined;
  return {
    // The token's derivation starts and the socket listens (answering /api/auth) before the rest loads.
    prepare: async (io, loaded, address) => {
      const { prepareApi } = await import('./modes/api-door.js');
      prepared = await prepareApi(io, loaded, address);
    },
    sink: (launch) => async (streams, ctx) => {
      if (!prepared) throw new Error('API mode started before prepare');
      const secret = prepared;
      const { startApi } = await import('./modes/api.js');
      const api = await startApi({ ...launch, ...secret, streams, scheduler: ctx.scheduler });
      let stopped = false;
      if (options.dashboard) {
        // The browser opens with the token once it is derived (not after a stop); the sources need not wait for that.
        const { showDashboard } = await import('./modes/gui.js');
        void secret.token.then((token) => (stopped ? undefined : showDashboard(launch, api.address, token))).catch(() => undefined);
      }
      const stop = async (): Promise<void> => {
        stopped = true;
        await api.close();
      };
      return { done: new Promise<number>(() => undefined), stop, apiBaseUrl: api.baseUrl, webhookMetrics: api.webhookMetrics, settle: api.settle };
    },
    release: async () => prepared?.door.close(),
  };
};

const tuiMode = (): ModeRunner => ({
  prepare: async (io) => {
    const { prepareTui } = await import('./modes/tui.js');
    await prepareTui(io);
  },
  sink: (launch) => async (streams, ctx) => {
    const { startTui } = await import('./modes/tui.js');
    return startTui(launch, streams, ctx);
  },
});

/** The interfaces this build offers; `undefined` = not built yet (refused, exit 2). */
const MODES: Readonly<Record<Mode, (() => ModeRunner) | undefined>> = {
  tui: tuiMode,
  api: apiMode,
  gui: () => apiMode({ dashboard: true }),
};

/** The runners of `modes`, refused (UsageError) when one is not built. */
export const modeRunners = (modes: readonly Mode[]): ModeRunner[] =>
  // --gui serves the API as well: one server for `--gui --api`.
  modes.filter((mode) => !(mode === 'api' && modes.includes('gui'))).map((mode) => {
    const make = MODES[mode];
    if (!make) throw new UsageError(NOT_BUILT[mode]);
    return make();
  });

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

/** The parsed monitor command: its interfaces, the config and the agents to watch. */
export interface MonitorPlan {
  readonly flags: { readonly demo: boolean; readonly open: boolean };
  readonly modes: readonly Mode[];
  readonly runners: readonly ModeRunner[];
  readonly address: ListenAddress | undefined;
  readonly loaded: Loaded;
  readonly agents: readonly AgentKind[];
}

/** Runs the monitor until a signal or an interface ends it; resolves to the exit code. */
export const runMonitor = async (io: CliIo, plan: MonitorPlan): Promise<number> => {
  // From here a signal stops the monitor cleanly (the API's socket listens from the prepare on).
  const signal = onStopSignal();
  const prepared: ModeRunner[] = [];
  try {
    for (const runner of plan.runners) {
      prepared.push(runner);
      await runner.prepare?.(io, plan.loaded, plan.address);
    }
    return await runPrepared(io, signal.stopped, plan);
  } finally {
    signal.dispose();
    // What a prepare took and no start took over (the API's socket): a failed start, a signal meanwhile.
    await Promise.allSettled(prepared.map(async (runner) => runner.release?.()));
  }
};

/** Logs each place of `agents` the config gets wrong (locations.ts `locationProblem`), except unreadable ones. */
const warnLocationProblems = async (io: CliIo, loaded: Loaded, agents: readonly AgentKind[], log: Logger): Promise<void> => {
  const [{ checkAgentLocations }, { locationProblem }] = await Promise.all([import('../doctor/sessions-locations.js'), import('../doctor/locations.js')]);
  for (const agent of agents) {
    for (const check of await checkAgentLocations(agent, loaded.config, io.env, io.platform).catch(() => [])) {
      const problem = check.state === 'unreadable' ? undefined : locationProblem(agent, check);
      if (problem !== undefined) log.warn(`${problem} (agentwatch doctor for details)`);
    }
  }
};

const runPrepared = async (io: CliIo, stopped: Promise<string>, { flags, modes, runners, address, loaded, agents }: MonitorPlan): Promise<number> => {
  const [{ asyncScheduler }, { startSourcePipeline }, { createLiveConfig }, { startSink }] = await Promise.all([
    import('rxjs'),
    import('./pipeline-setup.js'),
    import('../config/live.js'),
    import('../streams/sink.js'),
  ]);
  // A stop during the loading above starts no interface (the TUI would flash, the API build for nothing).
  let stopping = false;
  void stopped.then(() => {
    stopping = true;
  });
  const log = stderrLogger(io, { info: true });
  // The search index catches up once the first listing is out, then follows what the sources read;
  // the API and the TUI search it. The demo's generated sessions get an index in memory, never the user's.
  const liveSearch = await import('../search/live.js');
  const live = createLiveConfig(loaded.config);
  const search = flags.demo
    ? liveSearch.createDemoIndex(loaded, asyncScheduler, log, live.current, agents)
    : liveSearch.createLiveIndex(io, loaded, startSourcePipeline, asyncScheduler, log, live.current, agents);
  // The sources start once the interfaces are up: the API answers during the first discovery.
  const sources = await startSourcePipeline(io, loaded, {
    agents,
    demo: flags.demo,
    watch: true,
    log,
    deferSources: true,
    ...(search ? { tap: search.tap, sinks: [liveSearch.searchIndexSink(search)] } : {}),
  });
  const { ctx, pipeline } = sources;
  const running: RunningMode[] = [];
  // The config's own mistakes (a claude_dirs entry that does not exist, a file where a folder
  // belongs) are no source's diagnostic: said once at start, as `agentwatch sessions` says them.
  // An unreadable place is left to its source's diagnostic (attention-log.ts).
  if (!flags.demo) void warnLocationProblems(io, loaded, agents, ctx.log);
  // The sinks' modules load while the interfaces start, before the first discovery: once it runs,
  // a module graph loads one file per event-loop turn between its slices (next-turn.ts), and
  // `got` behind the webhooks kept a stop signal waiting for this setup to end.
  const sinkModules = import('./sinks.js');
  // NOTE: a rejection is met by the await below; a stop before it must not leave it unhandled.
  sinkModules.catch(() => undefined);
  try {
    for (const runner of runners) {
      if (stopping) return 0;
      // NOTE: a start takes a moment (modules, the token, listening); a signal meanwhile must not be swallowed.
      const launch = { io, loaded, address, live, demo: flags.demo, open: flags.open, ...(search ? { search } : {}) };
      const starting = startSink(runner.sink(launch), pipeline.streams, ctx);
      const started = await Promise.race([starting, stopped.then(() => undefined)]);
      if (!started) {
        void starting.then((mode) => mode.stop()).catch(() => undefined);
        return 0;
      }
      running.push(started);
    }
    const modules = await Promise.race([sinkModules, stopped.then(() => undefined)]);
    if (!modules) return 0;
    const sinks = modules.monitorSinks({
      io,
      loaded,
      live,
      pipeline,
      agents,
      demo: flags.demo,
      tui: modes.includes('tui'),
      releaseDetails: () => {
        if (sources.releaseDetails() > 0) for (const mode of running) mode.settle?.();
      },
      api: { baseUrl: running.find((mode) => mode.apiBaseUrl)?.apiBaseUrl, webhookMetrics: running.find((mode) => mode.webhookMetrics)?.webhookMetrics },
    });
    sources.begin(modules.sinkList(sinks));
    if (flags.demo) ctx.log.info('--demo: sample sessions; webhooks and desktop notifications are off');
    const ended = await Promise.race([stopped.then(() => 0), ...running.map((mode) => mode.done)]);
    return ended;
  } finally {
    // Interfaces first (SSE streams end, sockets close), then the pipeline: the discovery cache
    // saves a last time, the sinks are told to flush and the sources stop.
    await Promise.allSettled(running.map((mode) => mode.stop()));
    await sources.stop();
    await search?.close();
  }
};
