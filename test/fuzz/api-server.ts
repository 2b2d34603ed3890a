import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createLiveConfig, type LiveConfig } from '../../src/config/live.js';
import { loadConfig } from '../../src/config/load.js';
import { configPath, sessionNamesPath, type Env } from '../../src/config/paths.js';
import { pathFinder } from '../../src/desktop/which.js';
import type { LimitAgent } from '../../src/core/agents.js';
import type { Outcomes } from '../../src/limits/types.js';
import type { LiveIndex } from '../../src/search/live.js';
import { allowedHostsFor } from '../../src/sinks/http/host-check.js';
import { buildServer } from '../../src/sinks/http/server.js';
import { detail, makeStore, makeTempEnv, viewsOf } from '../sinks/http/helpers.js';
import { idleMetrics } from '../sinks/metrics/exposition.js';

/**
 * The whole API on one server for fuzzing: every route (dashboard, limits, settings, actions,
 * search, metrics, the delivery log) over a temp HOME with a real config file holding a key of the
 * user's own and a real names file. Nothing is spawned (actions record what they would start) and
 * no provider is called. The token is fixed: 600,000 PBKDF2 iterations per test file buy nothing here.
 */

export const TOKEN = 'fuzz-token-0123456789abcdefghijklmnopqrstuvw';
export const PASSPHRASE = 'a passphrase long enough';
/** What the user keeps in the config file besides agentwatch's keys: must survive every write. */
export const USER_KEYS = { my_own_key: { kept: true, list: [1, 'two'] } } as const;
export const SESSION_IDS = ['s-1', 'codex-2', 'caf\u00e9 \u2603'] as const;

export interface ApiHarness {
  readonly app: FastifyInstance;
  readonly env: Env;
  readonly live: LiveConfig;
  readonly configFile: string;
  readonly namesFile: string;
  /** Programs the actions routes would have started. */
  readonly started: string[];
  readonly close: () => Promise<void>;
}

const emptyIndex: LiveIndex = { tap: () => undefined, follow: () => undefined, search: async () => [], indexing: () => false, close: async () => undefined };

const skippedLimits = async (agents: readonly LimitAgent[]): Promise<Outcomes> =>
  Object.fromEntries(agents.map((agent) => [agent, { kind: 'skipped', agent, reason: 'no-credential', message: `no ${agent} login` }])) as Outcomes;

export const makeApiHarness = async (): Promise<ApiHarness> => {
  const temp = await makeTempEnv();
  const env: Env = { ...temp.env, PATH: path.join(temp.root, 'bin') };
  const configFile = configPath(env);
  const namesFile = sessionNamesPath(env);
  await mkdir(path.dirname(configFile), { recursive: true });
  await writeFile(configFile, `${JSON.stringify({ api_passphrase: PASSPHRASE, api_salt: 'salt-of-fuzz', ...USER_KEYS }, null, 2)}\n`);
  await writeFile(namesFile, `${JSON.stringify({ 's-1': 'first name', 'unlisted-id': 'kept' }, null, 2)}\n`);
  const loaded = await loadConfig(env, { write: true });
  const live = createLiveConfig(loaded.config);
  const sessions = SESSION_IDS.map((id) => detail({ session_id: id, cwd: temp.root, resume_command: `claude --resume ${id}` }));
  const { store } = await makeStore(env, viewsOf(sessions));
  const guiDir = path.join(temp.root, 'gui');
  await mkdir(path.join(guiDir, 'assets'), { recursive: true });
  await writeFile(path.join(guiDir, 'index.html'), '<!doctype html><title>agentwatch</title>');
  await writeFile(path.join(guiDir, 'assets', 'app-0123abcd.js'), 'export {};');
  const started: string[] = [];
  const metrics = idleMetrics({ processMetrics: false });
  const app = await buildServer({
    store,
    token: TOKEN,
    salt: 'salt-of-fuzz',
    config: () => live.current(),
    allowedHosts: allowedHostsFor('127.0.0.1'),
    // Wrong tokens are part of the input: the limiter must not turn every later case into a 429.
    authLimit: { maxFailures: Number.MAX_SAFE_INTEGER, windowMs: 1 },
    deliveries: () => [],
    metrics,
    search: emptyIndex,
    dashboard: {
      guiDir,
      limits: { sample: false, now: () => 1_000_000, read: skippedLimits },
      settings: { env, live, startedWith: loaded.config, runningAgents: ['claude', 'codex'], launchAtLogin: async (enabled) => `autostart ${String(enabled)}` },
      actions: {
        env,
        platform: 'linux',
        finder: pathFinder(env, 'linux'),
        start: async (step) => {
          started.push(step.command);
        },
      },
      scope: async () => ({ window_minutes: 30, listed: SESSION_IDS.length, outside_window: 0, ready: true, looked_in: [] }),
    },
  });
  return {
    app,
    env,
    live,
    configFile,
    namesFile,
    started,
    close: async () => {
      await app.close();
      metrics.stop();
      store.close();
      await temp.cleanup();
    },
  };
};

/** The bytes of a file, or undefined when it does not exist. */
export const bytesOf = async (file: string): Promise<Buffer | undefined> => readFile(file).catch(() => undefined);
