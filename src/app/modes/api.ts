import type { SchedulerLike } from 'rxjs';
import type { SinkStreams } from '../../streams/sink.js';
import type { CliIo } from '../../core/io.js';
import type { Loaded } from '../../config/load.js';
import { loadSessionNames, setSessionName } from '../../config/session-names.js';
import { createWorktreeLookup } from '../worktree.js';
import type { ListenAddress } from '../../sinks/http/address.js';
import type { FrontDoor, RequestHandler } from '../../sinks/http/front-door.js';
import { allowedHostsFor } from '../../sinks/http/host-check.js';
import { watchSessionNames } from '../../sinks/http/names-watch.js';
import { readRecentDeliveries } from '../../sinks/webhook/delivery-store.js';
import { startMetrics, type WebhookMetrics } from '../../sinks/metrics/index.js';
import { buildServer, type ServerDeps } from '../../sinks/http/server.js';
import { createSessionStore } from '../../sinks/http/store.js';
import { createLiveConfig, type LiveConfig } from '../../config/live.js';
import { currentCommand, setLaunchAtLogin } from '../../desktop/autostart.js';
import { spawnDetached } from '../../desktop/spawn-detached.js';
import { pathFinder } from '../../desktop/which.js';
import type { DashboardDeps } from '../../sinks/http/routes/dashboard.js';
import { terminalSafe } from '../../core/terminal-safe.js';
import { agentLimits } from '../../sources/agents.js';

/**
 * The `--api` interface over a socket that already listens (api-door.ts): the server over the
 * shared pipeline, serving at once (the token's derivation and the first discovery go on behind it).
 */

export interface ApiLaunch {
  readonly io: CliIo;
  readonly loaded: Loaded;
  /** The shared streams the interface serves (streams/sink.ts). */
  readonly streams: SinkStreams;
  /** The bearer token, or its derivation still running (requests that need it wait for it). */
  readonly token: string | Promise<string>;
  readonly salt: string;
  /** The listening socket (api-door.ts), handed to the app once it is ready. */
  readonly door: FrontDoor;
  /** `http://host:port` of the door. */
  readonly baseUrl: string;
  readonly scheduler: SchedulerLike;
  /** Extra routes on the same server (buildServer `extend`), e.g. the web dashboard. */
  readonly extend?: ServerDeps['extend'];
  readonly search?: ServerDeps['search'];
  /** The running config (Settings panel changes land here); default: the loaded one, fixed. */
  readonly live?: LiveConfig;
  /** --demo: GET /api/limits answers generated sample windows, never a vendor request. */
  readonly demo?: boolean;
  /** Where the dashboard's files are (tests); default dist/gui of the package. */
  readonly guiDir?: string;
}

/** The dashboard's routes over the real machine: vendors, config file, login entry, programs on PATH. */
const dashboardDeps = (launch: ApiLaunch, live: LiveConfig): DashboardDeps => {
  const { io, loaded, streams } = launch;
  return {
    ...(launch.guiDir ? { guiDir: launch.guiDir } : {}),
    limits: {
      sample: launch.demo === true,
      now: () => Date.now(),
      read: async (agents, now) => {
        if (launch.demo) return (await import('../../limits/sample.js')).sampleOutcomes(now, agents);
        const [{ fetchLimits }, { makeLimitsCtx }, { firstValueFrom }] = await Promise.all([import('../../limits/fetch-limits.js'), import('../../limits/make-ctx.js'), import('rxjs')]);
        const { sessionsAtOf } = await import('../limits-sessions.js');
        return firstValueFrom(fetchLimits(makeLimitsCtx(io, { sessionsAt: sessionsAtOf(live.current(), io.env, io.platform) }), agents, agentLimits));
      },
    },
    settings: {
      env: io.env,
      live,
      startedWith: loaded.config,
      runningAgents: streams.agents,
      launchAtLogin: (enabled) => setLaunchAtLogin(enabled, { platform: io.platform, env: io.env, command: currentCommand() }),
    },
    actions: { env: io.env, platform: io.platform, finder: pathFinder(io.env, io.platform), start: spawnDetached },
    scope: async () => {
      const [{ firstValueFrom }, { agentLocations }, { scopeOf }] = await Promise.all([
        import('rxjs'),
        import('../../doctor/sessions-locations.js'),
        import('../../sinks/http/scope-of.js'),
      ]);
      const state = await firstValueFrom(streams.state$);
      const config = live.current();
      const lookedIn = streams.agents.flatMap((agent) => agentLocations(agent, config, io.env, io.platform).map((path) => ({ agent, path })));
      return scopeOf(state, Date.now(), streams.visibility, lookedIn);
    },
  };
};

export interface RunningApi {
  readonly address: ListenAddress;
  /** `http://host:port`, for webhook payloads and messages. */
  readonly baseUrl: string;
  /** Where the webhook sink reports (the webhook series of GET /metrics). */
  readonly webhookMetrics: WebhookMetrics;
  /** Brings the served listing up to date now (it lets go of the session states the fold replaced). */
  readonly settle: () => void;
  readonly close: () => Promise<void>;
}

export const startApi = async (launch: ApiLaunch): Promise<RunningApi> => {
  const { io, loaded, streams } = launch;
  const live = launch.live ?? createLiveConfig(loaded.config);
  // Serve at once: /api/auth and the dashboard answer while the first discovery runs; lists hold
  // what is known so far with stats.ready false, and SSE sends `ready` when it completes.

  const names = await loadSessionNames(io.env);
  if (names.problem) io.stderr.write(terminalSafe(`agentwatch: ${names.problem}\n`));
  const store = createSessionStore({
    feed: streams,
    worktree: createWorktreeLookup(),
    names: names.names,
    namesChanged$: watchSessionNames(io.env, launch.scheduler),
    saveName: async (sessionId, name) => {
      const saved = await setSessionName(io.env, sessionId, name);
      if (saved.problem) io.stderr.write(terminalSafe(`agentwatch: ${saved.problem}\n`));
      return saved.names;
    },
  });

  const metrics = startMetrics({
    frame$: streams.frame$,
    listing: streams.listing,
    transitions$: streams.transitions$,
    visibility: () => streams.visibility,
    notifyAfterSec: () => live.current().notify_after_sec,
    now: () => launch.scheduler.now(),
    scheduler: launch.scheduler,
  });
  const { door } = launch;
  // The door listens already; Fastify serves on it (never listens itself) once its routes are ready.
  const taken: { route?: RequestHandler } = {};
  const app = await buildServer({
    metrics,
    ...(launch.search ? { search: launch.search } : {}),
    store,
    token: launch.token,
    salt: launch.salt,
    config: () => live.current(),
    dashboard: dashboardDeps(launch, live),
    allowedHosts: allowedHostsFor(door.address.host),
    scheduler: launch.scheduler,
    deliveries: (query) => readRecentDeliveries(io.env, query),
    ...(launch.extend ? { extend: launch.extend } : {}),
    serverFactory: (handler) => {
      taken.route = handler;
      return door.server;
    },
  }).catch((error: unknown) => {
    store.close();
    metrics.stop();
    throw error;
  });
  try {
    await app.ready();
    if (!taken.route) throw new Error('Fastify did not take the server (serverFactory not called)');
    door.open(taken.route);
  } catch (error) {
    store.close();
    metrics.stop();
    await app.close();
    throw error;
  }
  return {
    address: door.address,
    baseUrl: launch.baseUrl,
    webhookMetrics: metrics.webhooks,
    settle: store.settle,
    close: async () => {
      // The app first (SSE streams end, new requests get 503), then the socket.
      await app.close();
      await door.close();
      store.close();
      metrics.stop();
    },
  };
};
