import { asyncScheduler } from 'rxjs';
import { startPipeline, type Pipeline } from '../app.js';
import { RuntimeError, UsageError, type CliIo } from '../cli/io.js';
import { loadConfig, type Loaded } from '../config/load.js';
import { configNotices } from '../config/notices.js';
import { AGENT_KINDS, isAgentKind, type AgentKind } from '../core/agents.js';
import type { Logger } from '../core/contracts.js';
import type { SessionEvent } from '../core/session.js';
import type { DiscoveryCache, SourceCtx } from '../sources/index.js';

/**
 * The setup the monitor and `sessions` share: load the config (printing its notices), pick the
 * agents, and run the sources through the one pipeline with the discovery cache kept fed.
 */

/** Loads (and, first time, writes) the config and prints its notices to stderr. */
export const loadConfigWithNotices = async (io: CliIo): Promise<Loaded> => {
  const loaded = await loadConfig(io.env, { write: true });
  for (const line of configNotices(loaded.path, loaded)) io.stderr.write(`${line}\n`);
  return loaded;
};

/** `info: false` keeps one-shot commands quiet on stderr; warnings and errors always show. */
export const stderrLogger = (io: CliIo, options: { readonly info: boolean }): Logger => ({
  info: options.info ? (message) => io.stderr.write(`agentwatch: ${message}\n`) : () => undefined,
  warn: (message) => io.stderr.write(`agentwatch: ${message}\n`),
  error: (message) => io.stderr.write(`agentwatch: error: ${message}\n`),
});

/**
 * What asking for a disabled agent by `--agent` does: `refuse` fails the command (exit 1, the
 * monitor), `skip` says so on stderr and picks none (`sessions` still prints its empty result).
 */
export type DisabledAgentPolicy = 'refuse' | 'skip';

/** Enabled agents: config `agents`, narrowed by `--agent` (`all` or absent = every enabled one). */
export const pickAgents = (io: CliIo, loaded: Loaded, agentFlag: string | undefined, onDisabled: DisabledAgentPolicy): AgentKind[] => {
  const enabled = AGENT_KINDS.filter((agent) => loaded.config.agents[agent]);
  if (agentFlag === undefined || agentFlag === 'all') return enabled;
  if (!isAgentKind(agentFlag)) throw new UsageError(`Invalid value for --agent: ${JSON.stringify(agentFlag)}`);
  if (enabled.includes(agentFlag)) return [agentFlag];
  const disabled = `${agentFlag} is disabled in ${loaded.path} (agents.${agentFlag}: false)`;
  if (onDisabled === 'refuse') throw new RuntimeError(disabled);
  io.stderr.write(`agentwatch: ${disabled}; nothing to list\n`);
  return [];
};

export interface SourcePipeline {
  readonly ctx: SourceCtx;
  readonly pipeline: Pipeline;
  /** Starts the sources (already done unless `deferSources`); later calls do nothing. */
  readonly begin: () => void;
  /** Saves the cache a last time, stops the sources and closes the cache, in that order. */
  readonly stop: () => Promise<void>;
}

export interface SourcePipelineOptions {
  readonly agents: readonly AgentKind[];
  /** Demo sessions instead of the real sources (no registry, no cache). */
  readonly demo: boolean;
  /** `false`: one discovery pass, then every source completes (one-shot commands). */
  readonly watch: boolean;
  readonly log: Logger;
  /** `false`: read every file from its start (doctor must see every record's diagnostic). */
  readonly cache?: boolean;
  /** Another discovery-cache file (search keeps its own offsets: what it has indexed). */
  readonly cacheFile?: string;
  /** Wait for `begin()` before starting the sources (the monitor starts its interfaces first). */
  readonly deferSources?: boolean;
  /** Sees every source event (PipelineOptions.tap). */
  readonly tap?: (event: SessionEvent) => void;
  /** Runs before each write of the discovery cache (the search index writes what it took from `tap` first). */
  readonly beforeCacheWrite?: () => void;
}

export const startSourcePipeline = async (io: CliIo, loaded: Loaded, options: SourcePipelineOptions): Promise<SourcePipeline> => {
  const registry = options.demo ? undefined : await import('../sources/index.js');
  const base: SourceCtx = {
    config: loaded.config,
    env: io.env,
    scheduler: asyncScheduler,
    now: () => asyncScheduler.now(),
    log: options.log,
    platform: io.platform,
    ...(options.watch ? {} : { watch: false }),
  };
  // The discovery cache makes warm starts read only what was appended; losing it is always safe.
  // It is opened when the sources start (`begin`), so a monitor's servers listen before its rows load.
  let cache: DiscoveryCache | undefined;
  let persist: (() => void | Promise<void>) | undefined;
  const sourceCtx = (): SourceCtx => {
    const opened = options.cache === false ? undefined : registry?.openDiscoveryCache(io.env, options.log, ...(options.cacheFile ? [options.cacheFile] : []));
    const { beforeCacheWrite } = options;
    cache = opened && beforeCacheWrite ? { ...opened, write: (...args: Parameters<typeof opened.write>) => (beforeCacheWrite(), opened.write(...args)) } : opened;
    return cache ? { ...base, cache } : base;
  };
  const pipeline = startPipeline(base, {
    sources: registry?.sources ?? {},
    agents: options.agents,
    demo: options.demo,
    deferSources: true,
    sourceCtx,
    ...(options.tap ? { tap: options.tap } : {}),
  });
  const begin = (): void => {
    pipeline.start();
    if (cache && registry) persist = registry.persistCache(pipeline.state$, cache, base.scheduler);
  };
  if (options.deferSources !== true) begin();
  const stop = async (): Promise<void> => {
    try {
      await persist?.();
    } finally {
      try {
        await pipeline.dispose();
      } finally {
        cache?.close();
      }
    }
  };
  return { ctx: base, pipeline, begin, stop };
};
