import { asyncScheduler, Subject } from 'rxjs';
import { startPipeline, type Pipeline } from './pipeline.js';
import type { CliIo } from '../core/io.js';
import type { Loaded } from '../config/load.js';
import type { AgentKind } from '../core/agents.js';
import type { Logger } from '../core/contracts.js';
import type { SessionEvent, SessionState } from '../core/session.js';
import type { Sink } from '../streams/sink.js';
import type { DiscoveryCache, Persister, SourceCtx } from '../sources/index.js';

/**
 * The setup the monitor and `sessions` share: run the sources through the one pipeline with the
 * discovery cache kept fed. Loading the config and picking the agents is config-setup.ts (light:
 * the monitor's API listens before this module's imports load).
 */

export interface SourcePipeline {
  readonly ctx: SourceCtx;
  readonly pipeline: Pipeline;
  /** Starts `sinks`, then the sources (already done unless `deferSources`); later calls do nothing. */
  readonly begin: (sinks?: readonly Sink[]) => void;
  /** Saves the cache a last time, stops the sources and closes the cache, in that order. */
  readonly stop: () => Promise<void>;
  /**
   * Once a first discovery without a cache is persisted: the sessions' details (recent messages
   * and tools, usage per message) go back to the cache, to be read when asked, as after a warm
   * start (Persister.lazyTwins, Pipeline.swapStates), and the sources drop the parsers of files
   * at rest (SourceCtx.restorable$). The number of sessions swapped.
   */
  readonly releaseDetails: () => number;
  /** About to read the details of `states` (restored ones from the discovery cache in one pass, if many: DiscoveryCache.prefetchDetails). */
  readonly prefetchDetails: (states: Iterable<SessionState>) => void;
}

export interface SourcePipelineOptions {
  readonly agents: readonly AgentKind[];
  /** Demo sessions instead of the real sources (no registry, no cache). */
  readonly demo: boolean;
  /** `false`: one discovery pass, then every source completes (one-shot commands). */
  readonly watch: boolean;
  /** With `watch: false`: transcripts last written before this time are not read (SourceCtx.readSince). */
  readonly readSince?: number;
  /** With `watch: false`: only files changed since the cache's rows are read; nothing is restored (SourceCtx.changedOnly). */
  readonly changedOnly?: boolean;
  readonly log: Logger;
  /** `false`: read every file from its start (doctor must see every record's diagnostic). */
  readonly cache?: boolean;
  /** Another discovery-cache file (search keeps its own offsets: what it has indexed). */
  readonly cacheFile?: string;
  /** Wait for `begin()` before starting the sources (the monitor starts its interfaces first). */
  readonly deferSources?: boolean;
  /** Started with the pipeline, before the sources (PipelineOptions.sinks). */
  readonly sinks?: readonly Sink[];
  /** Sees every source event (PipelineOptions.tap). */
  readonly tap?: (event: SessionEvent) => void;
  /** Runs before each write of the discovery cache (the search index writes what it took from `tap` first). */
  readonly beforeCacheWrite?: () => void;
}

export const startSourcePipeline = async (io: CliIo, loaded: Loaded, options: SourcePipelineOptions): Promise<SourcePipeline> => {
  const registry = options.demo ? undefined : await import('../sources/index.js');
  const restorable = new Subject<readonly SessionState[]>();
  const base: SourceCtx = {
    config: loaded.config,
    env: io.env,
    scheduler: asyncScheduler,
    now: () => asyncScheduler.now(),
    log: options.log,
    platform: io.platform,
    ...(options.watch
      ? { restorable$: restorable.asObservable() }
      : { watch: false, ...(options.readSince === undefined ? {} : { readSince: options.readSince }), ...(options.changedOnly === true ? { changedOnly: true } : {}) }),
  };
  // The discovery cache makes warm starts read only what was appended; losing it is always safe.
  // It is opened when the sources start (`begin`), so a monitor's servers listen before its rows load.
  let cache: DiscoveryCache | undefined;
  let persister: Persister | undefined;
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
    ...(options.sinks ? { sinks: options.sinks } : {}),
  });
  const begin = (sinks: readonly Sink[] = []): void => {
    pipeline.start(sinks);
    if (cache && registry) persister = registry.createPersister(pipeline.state$, cache, base.scheduler);
  };
  if (options.deferSources !== true) begin();
  const stop = async (): Promise<void> => {
    try {
      persister?.stop();
    } finally {
      try {
        await pipeline.dispose();
      } finally {
        cache?.close();
      }
    }
  };
  const releaseDetails = (): number => {
    const twins = persister?.lazyTwins() ?? [];
    pipeline.swapStates(twins);
    if (twins.length > 0) restorable.next(twins.map((twin) => twin.to));
    return twins.length;
  };
  const prefetchDetails = (states: Iterable<SessionState>): void => cache?.prefetchDetails(states);
  return { ctx: base, pipeline, begin, stop, releaseDetails, prefetchDetails };
};
