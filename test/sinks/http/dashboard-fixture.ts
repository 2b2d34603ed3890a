import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { setTimeout as delay } from 'node:timers/promises';
import type { Config } from '../../../src/config/effective.js';
import { createLiveConfig, type LiveConfig } from '../../../src/config/live.js';
import { loadConfig } from '../../../src/config/load.js';
import type { Env } from '../../../src/config/paths.js';
import type { SessionDetail } from '../../../src/core/session.js';
import type { LimitAgent } from '../../../src/core/agents.js';
import { setLaunchAtLogin } from '../../../src/desktop/autostart.js';
import { spawnDetached } from '../../../src/desktop/spawn-detached.js';
import { pathFinder } from '../../../src/desktop/which.js';
import { allowedHostsFor } from '../../../src/sinks/http/host-check.js';
import { buildServer } from '../../../src/sinks/http/server.js';
import type { Outcomes } from '../../../src/limits/types.js';
import { deriveToken } from '../../../src/sinks/http/token.js';
import { makeStore, makeTempEnv, viewsOf } from './helpers.js';

/**
 * A server with the dashboard's routes over a temp HOME: a real config file, a PATH holding only
 * fake programs (terminals, editors, agents) that record their argv and working directory.
 */

export const PASSPHRASE = 'a passphrase long enough';

export interface DashboardHarness {
  readonly app: FastifyInstance;
  readonly env: Env;
  readonly root: string;
  readonly bin: string;
  readonly records: string;
  readonly live: LiveConfig;
  readonly token: string;
  readonly reads: { agents: readonly LimitAgent[]; now: number }[];
  clock: number;
  readonly auth: () => Record<string, string>;
  readonly close: () => Promise<void>;
}

/** A fake program: writes its working directory, then one argument per line, to records/<name>.argv; optionally runs its arguments. */
export const fakeProgram = async (harness: Pick<DashboardHarness, 'bin' | 'records'>, name: string, options: { exec?: boolean } = {}): Promise<void> => {
  const file = path.join(harness.bin, name);
  const record = path.join(harness.records, `${name}.argv`);
  // Written aside, then renamed: a reader never sees half a record.
  await writeFile(file, `#!/bin/sh\n{ pwd; printf '%s\\n' "$@"; } > '${record}.tmp'\n/bin/mv '${record}.tmp' '${record}'\n${options.exec ? 'exec "$@"\n' : ''}`);
  await chmod(file, 0o755);
};

/** What a fake program recorded: its cwd and argv, waiting (bounded) for the detached process to write it. */
export const recorded = async (harness: Pick<DashboardHarness, 'records'>, name: string): Promise<{ cwd: string; argv: string[] }> => {
  const file = path.join(harness.records, `${name}.argv`);
  for (let tries = 0; tries < 200; tries += 1) {
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text !== undefined) {
      const [cwd = '', ...argv] = text.replace(/\n$/, '').split('\n');
      return { cwd, argv };
    }
    await delay(20);
  }
  throw new Error(`${name} was never started`);
};

export const makeDashboard = async (options: {
  readonly sessions?: readonly SessionDetail[] | ((root: string) => Promise<readonly SessionDetail[]>);
  readonly platform?: NodeJS.Platform;
  readonly host?: string;
  readonly guiDir?: string;
  readonly sample?: boolean;
  readonly read?: (agents: readonly LimitAgent[], now: number) => Promise<Outcomes>;
  readonly env?: Record<string, string>;
} = {}): Promise<DashboardHarness> => {
  const temp = await makeTempEnv();
  const bin = path.join(temp.root, 'bin');
  const records = path.join(temp.root, 'records');
  await mkdir(bin, { recursive: true });
  await mkdir(records, { recursive: true });
  const env: Env = { ...temp.env, PATH: bin, ...options.env };
  await mkdir(path.join(env.XDG_CONFIG_HOME ?? '', 'agentwatch'), { recursive: true });
  await writeFile(path.join(env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json'), `${JSON.stringify({ api_passphrase: PASSPHRASE, api_salt: 'salt-of-test', my_own_key: { kept: true } }, null, 2)}\n`);
  const loaded = await loadConfig(env, { write: true });
  const live = createLiveConfig(loaded.config);
  const token = await deriveToken(PASSPHRASE, 'salt-of-test');
  const sessions = typeof options.sessions === 'function' ? await options.sessions(temp.root) : (options.sessions ?? []);
  const { store } = await makeStore(env, viewsOf(sessions));
  const reads: DashboardHarness['reads'] = [];
  const platform = options.platform ?? 'linux';
  const harness: DashboardHarness = {
    app: undefined as unknown as FastifyInstance,
    env,
    root: temp.root,
    bin,
    records,
    live,
    token,
    reads,
    clock: 1_000_000,
    auth: () => ({ authorization: `Bearer ${token}` }),
    close: async () => undefined,
  };
  const app = await buildServer({
    store,
    token,
    salt: 'salt-of-test',
    config: () => live.current(),
    allowedHosts: allowedHostsFor(options.host ?? '127.0.0.1'),
    dashboard: {
      guiDir: options.guiDir ?? path.join(temp.root, 'no-gui-here'),
      limits: {
        sample: options.sample === true,
        now: () => harness.clock,
        read:
          options.read ??
          (async (agents, now) => {
            reads.push({ agents, now });
            return Object.fromEntries(agents.map((agent) => [agent, { kind: 'skipped', agent, reason: 'no-credential', message: `no ${agent} login` }])) as Outcomes;
          }),
      },
      settings: {
        env,
        live,
        startedWith: loaded.config,
        runningAgents: ['claude', 'codex'],
        launchAtLogin: (enabled) => setLaunchAtLogin(enabled, { platform, env, command: ['/opt/node/bin/node', '/opt/agentwatch/dist/cli.js', '--gui', '--no-open'] }),
      },
      actions: { env, platform, finder: pathFinder(env, 'linux'), start: spawnDetached },
    },
  });
  Object.assign(harness, {
    app,
    close: async () => {
      await app.close();
      store.close();
      await temp.cleanup();
    },
  });
  return harness;
};

export const readConfigFile = async (env: Env): Promise<Record<string, unknown>> =>
  JSON.parse(await readFile(path.join(env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json'), 'utf8')) as Record<string, unknown>;

export type { Config };
