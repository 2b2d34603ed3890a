import type { SchedulerLike } from 'rxjs';
import type { Pipeline } from '../../app.js';
import type { CliIo } from '../../cli/io.js';
import { RuntimeError } from '../../cli/io.js';
import { canPrompt } from '../../cli/prompt.js';
import type { Loaded } from '../../config/load.js';
import { passphraseProblem } from '../../config/load.js';
import { loadSessionNames, setSessionName } from '../../config/session-names.js';
import { createWorktreeLookup } from '../../streams/worktree.js';
import { DEFAULT_HOST, FALLBACK_PORTS, formatAddress, type ListenAddress } from './address.js';
import { allowedHostsFor } from './host-check.js';
import { listenOnFirstFree } from './listen.js';
import { askNewPassphrase, saveNewPassphrase } from './passphrase-flow.js';
import { watchSessionNames } from './names-watch.js';
import { readRecentDeliveries } from '../webhook/delivery-store.js';
import { startMetrics, type WebhookMetrics } from '../metrics/index.js';
import { buildServer, type ServerDeps } from './server.js';
import { createSessionStore } from './store.js';
import { deriveToken } from './token.js';
import { createLiveConfig, type LiveConfig } from '../../config/live.js';
import { currentCommand, setLaunchAtLogin } from '../../desktop/autostart.js';
import { spawnDetached } from '../../desktop/spawn-detached.js';
import { pathFinder } from '../../desktop/which.js';
import type { DashboardDeps } from './routes/dashboard.js';

/**
 * The `--api` interface: the token first (asking for a passphrase on a terminal's first run,
 * refusing to serve without one), then the server over the shared pipeline, listening at once
 * (the first discovery goes on behind it).
 */

/**
 * The effective passphrase's token, started at once and awaited where the server needs it (the
 * 600,000-iteration derivation runs on the thread pool while the modules load and the first
 * frames fold); on a terminal with none configured, asks for one and saves it first.
 */
export const prepareApiToken = async (io: CliIo, loaded: Loaded): Promise<{ token: Promise<string>; salt: string }> => {
  const passphrase = loaded.config.api_passphrase;
  const salt = loaded.config.api_salt;
  if (passphrase.trim() === '') {
    if (!canPrompt(io)) {
      throw new RuntimeError(
        `the API needs a passphrase and none is configured: set AGENTWATCH_API_PASSPHRASE, or run agentwatch passphrase (or agentwatch --api) in a terminal; ${loaded.path}`,
      );
    }
    io.stderr.write('The API is protected by a token derived from a passphrase. None is configured yet.\n');
    const saved = await saveNewPassphrase(io, await askNewPassphrase(io));
    return { token: Promise.resolve(saved.token), salt: saved.salt };
  }
  const fromEnv = Boolean(io.env.AGENTWATCH_API_PASSPHRASE?.trim());
  const problem = passphraseProblem(passphrase);
  if (problem) throw new RuntimeError(`${fromEnv ? 'AGENTWATCH_API_PASSPHRASE' : `${loaded.path}: api_passphrase`}: ${problem}`);
  const token = deriveToken(passphrase, salt);
  // Awaited later; a failure surfaces there, not as an unhandled rejection meanwhile.
  token.catch(() => undefined);
  return { token, salt };
};

/** The effective passphrase's token; on a terminal with none configured, asks for one and saves it. */
export const resolveApiToken = async (io: CliIo, loaded: Loaded): Promise<{ token: string; salt: string }> => {
  const prepared = await prepareApiToken(io, loaded);
  return { token: await prepared.token, salt: prepared.salt };
};

export interface ApiLaunch {
  readonly io: CliIo;
  readonly loaded: Loaded;
  readonly pipeline: Pipeline;
  /** The bearer token, or its derivation still running (awaited before the server is built). */
  readonly token: string | Promise<string>;
  readonly salt: string;
  /** From `--host`; undefined means 127.0.0.1 with the 7421-7431 fallback. */
  readonly address: ListenAddress | undefined;
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
  const { io, loaded, pipeline } = launch;
  return {
    ...(launch.guiDir ? { guiDir: launch.guiDir } : {}),
    limits: {
      sample: launch.demo === true,
      now: () => Date.now(),
      read: async (agents, now) => {
        if (launch.demo) return (await import('../../limits/sample.js')).sampleOutcomes(now, agents);
        const [{ fetchLimits }, { makeLimitsCtx }, { firstValueFrom }] = await Promise.all([import('../../limits/fetch-limits.js'), import('../../limits/command.js'), import('rxjs')]);
        return firstValueFrom(fetchLimits(makeLimitsCtx(io), agents));
      },
    },
    settings: {
      env: io.env,
      live,
      startedWith: loaded.config,
      runningAgents: pipeline.agents,
      launchAtLogin: (enabled) => setLaunchAtLogin(enabled, { platform: io.platform, env: io.env, command: currentCommand() }),
    },
    actions: { env: io.env, platform: io.platform, finder: pathFinder(io.env, io.platform), start: spawnDetached },
    scope: async () => {
      const [{ firstValueFrom }, { agentLocations }, { scopeOf }] = await Promise.all([
        import('rxjs'),
        import('../../commands/sessions-locations.js'),
        import('./scope-of.js'),
      ]);
      const state = await firstValueFrom(pipeline.state$);
      const config = live.current();
      const lookedIn = pipeline.agents.flatMap((agent) => agentLocations(agent, config, io.env, io.platform).map((path) => ({ agent, path })));
      return scopeOf(state, Date.now(), pipeline.visibility, lookedIn);
    },
  };
};

export interface RunningApi {
  readonly address: ListenAddress;
  /** `http://host:port`, for webhook payloads and messages. */
  readonly baseUrl: string;
  /** Where the webhook sink reports (the webhook series of GET /metrics). */
  readonly webhookMetrics: WebhookMetrics;
  readonly close: () => Promise<void>;
}

export const startApi = async (launch: ApiLaunch): Promise<RunningApi> => {
  const { io, loaded, pipeline } = launch;
  const live = launch.live ?? createLiveConfig(loaded.config);
  // Serve at once: /api/auth and the dashboard answer while the first discovery runs; lists hold
  // what is known so far with stats.ready false, and SSE sends `ready` when it completes.

  const names = await loadSessionNames(io.env);
  if (names.problem) io.stderr.write(`agentwatch: ${names.problem}\n`);
  const store = createSessionStore({
    frame$: pipeline.frame$,
    visibility: () => pipeline.visibility,
    worktree: createWorktreeLookup(),
    names: names.names,
    namesChanged$: watchSessionNames(io.env, launch.scheduler),
    saveName: async (sessionId, name) => {
      const saved = await setSessionName(io.env, sessionId, name);
      if (saved.problem) io.stderr.write(`agentwatch: ${saved.problem}\n`);
      return saved.names;
    },
  });

  const metrics = startMetrics({
    frame$: pipeline.frame$,
    transitions$: pipeline.transitions$,
    visibility: () => pipeline.visibility,
    notifyAfterSec: () => live.current().notify_after_sec,
    now: () => launch.scheduler.now(),
    scheduler: launch.scheduler,
  });
  const host = launch.address?.host ?? DEFAULT_HOST;
  const app = await buildServer({
    metrics,
    ...(launch.search ? { search: launch.search } : {}),
    store,
    token: await launch.token,
    salt: launch.salt,
    config: () => live.current(),
    dashboard: dashboardDeps(launch, live),
    allowedHosts: allowedHostsFor(host),
    scheduler: launch.scheduler,
    deliveries: (query) => readRecentDeliveries(io.env, query),
    ...(launch.extend ? { extend: launch.extend } : {}),
  });
  let bound: ListenAddress;
  try {
    bound = await listenOnFirstFree(app, host, launch.address ? [launch.address.port] : FALLBACK_PORTS);
  } catch (error) {
    store.close();
    metrics.stop();
    await app.close();
    throw new RuntimeError((error as Error).message);
  }
  const baseUrl = `http://${formatAddress(bound)}`;
  io.stderr.write(`agentwatch: API listening on ${baseUrl} (playground: ${baseUrl}/api)\n`);
  if (allowedHostsFor(host) === 'any') {
    io.stderr.write(`agentwatch: warning: ${host} is not a loopback address; the API is reachable from other machines (token required)\n`);
  }
  return {
    address: bound,
    baseUrl,
    webhookMetrics: metrics.webhooks,
    close: async () => {
      await app.close();
      store.close();
      metrics.stop();
    },
  };
};
