import { rmSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { filter, firstValueFrom, fromEvent, takeUntil, timeout, type Observable } from 'rxjs';
import type { CliIo } from '../core/io.js';
import type { Loaded } from '../config/load.js';
import { AGENT_KINDS, type AgentKind } from '../core/agents.js';
import type { Logger } from '../core/contracts.js';
import type { SessionEvent } from '../core/session.js';
import type { PipelineFrame } from '../streams/frames.js';
import { openSearchDb, removeSearchIndex, searchCursorPath, searchDbPath } from './index-db.js';
import { describeFault, storageFault } from '../util/storage-fault.js';
import { createIndexer, type Indexer } from './indexer.js';
import { excludedBy, reconcileScope, type IndexScope } from './scope.js';
import { catchUpDatabase, databaseSpecs, isSqliteAgent, type CatchUpDeps } from './sqlite-catch-up.js';
import { fileAgentRoots, treeStamp } from './tree-stamp.js';

/** How long a catch-up may read before searching what it has. */
const CATCH_UP_WAIT_MS = 120_000;
/** Messages held before a write: a first index of a large history must not sit in memory. */
const FLUSH_EVERY = 5_000;

/**
 * Runs the sources of `agents` once (no watching) from the offsets in `cacheFile`, every event
 * through `tap` first; the monitor's setup passes its own (app/pipeline-setup.ts).
 */
export type StartSources = (
  io: CliIo,
  loaded: Loaded,
  options: {
    readonly agents: readonly AgentKind[];
    readonly demo: false;
    readonly watch: false;
    /** Only what changed since the offsets is read; the sessions at rest are not restored. */
    readonly changedOnly: true;
    readonly log: Logger;
    readonly cacheFile: string;
    readonly tap: (event: SessionEvent) => void;
    readonly beforeCacheWrite: () => void;
  },
) => Promise<{ readonly pipeline: { readonly frame$: Observable<PipelineFrame> }; readonly stop: () => Promise<void> }>;

/** The enabled agents and exclusions of the config: what the index may hold. */
export const scopeOf = (loaded: Pick<Loaded, 'config'>): IndexScope => ({
  agents: AGENT_KINDS.filter((agent) => loaded.config.agents[agent]),
  excludeCwd: loaded.config.exclude_cwd_substrings,
});

export interface OpenedIndex {
  readonly db: Database.Database;
  readonly indexer: Indexer;
  /** The index was created, rebuilt or reset here: it holds nothing read before. */
  readonly fresh: boolean;
}

/**
 * Opens the index for `scope`: `reindex`, a corrupt or old index, or a scope that widened (an agent
 * enabled, an exclusion lifted) start it from nothing, together with the offsets of what it held.
 */
export const openIndex = (env: CliIo['env'], scope: IndexScope, options: { readonly reindex: boolean; readonly log: Logger }): OpenedIndex => {
  if (options.reindex) removeSearchIndex(env);
  let { db, rebuilt } = openSearchDb(env, options.log);
  if (reconcileScope(db, scope) === 'widened') {
    db.close();
    removeSearchIndex(env);
    ({ db } = openSearchDb(env, options.log));
    reconcileScope(db, scope);
    rebuilt = true;
  }
  // A fresh index must not trust offsets of what an old one held.
  if (rebuilt) for (const suffix of ['', '-wal', '-shm']) rmSync(`${searchCursorPath(env)}${suffix}`, { force: true });
  return { db, indexer: createIndexer(db, { excluded: excludedBy(scope.excludeCwd) }), fresh: rebuilt || options.reindex };
};

export interface CatchUpOptions {
  readonly log: Logger;
  readonly startSources: StartSources;
  readonly databases?: Omit<CatchUpDeps, 'log' | 'now'>;
  /** Messages held before a write (default FLUSH_EVERY); a monitor writes smaller batches to keep each pause short. */
  readonly flushEvery?: number;
  /** Stops the catch-up where it is (a monitor shutting down): what was read is written, the stamp is not. */
  readonly signal?: AbortSignal;
}

/**
 * Brings an open index up to date: the file agents' sources run once with the search's own
 * discovery cache (only what was appended since the last catch-up is read: a second search reads
 * nothing), unless nothing under their directories changed at all (tree-stamp.ts: then they do
 * not even start); the SQLite agents through their readers from their high-water marks.
 */
export const catchUp = async (io: CliIo, loaded: Loaded, index: OpenedIndex, options: CatchUpOptions): Promise<number> => {
  const { indexer } = index;
  const agents = scopeOf(loaded).agents;
  const fileAgents = agents.filter((agent) => !isSqliteAgent(agent));
  let indexed = 0;
  const flushEvery = options.flushEvery ?? FLUSH_EVERY;
  const { signal } = options;
  // Taken before the sources read: a write during the catch-up leaves the next one a different stamp.
  const stamp = `${fileAgents.join(',')}:${treeStamp(fileAgents.flatMap((agent) => fileAgentRoots(agent, loaded.config, io.env, io.platform)))}`;
  const stored = index.db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'files-stamp'`).get()?.value;
  if (fileAgents.length > 0 && stamp !== stored && !signal?.aborted) {
    const tap = (event: SessionEvent): void => {
      indexer.add(event);
      if (indexer.pending() >= flushEvery) indexed += indexer.flush();
    };
    const { pipeline, stop } = await options.startSources(io, loaded, {
      agents: fileAgents,
      demo: false,
      watch: false,
      changedOnly: true,
      log: options.log,
      cacheFile: searchCursorPath(io.env),
      tap,
      // An offset is saved only once what was read up to it is in the index.
      beforeCacheWrite: () => void (indexed += indexer.flush()),
    });
    let frame: PipelineFrame | undefined;
    try {
      const ready$ = pipeline.frame$.pipe(filter((f) => f.state.ready), timeout({ first: CATCH_UP_WAIT_MS }));
      if (!signal?.aborted) frame = await firstValueFrom(signal ? ready$.pipe(takeUntil(fromEvent(signal, 'abort'))) : ready$, { defaultValue: undefined });
      // The sessions as the fold has them (what `agentwatch sessions` lists): their last activity.
      if (frame) for (const session of frame.state.sessions.values()) indexer.observe(session);
    } finally {
      await stop();
    }
    if (!frame || signal?.aborted) return indexed + indexer.flush();
    index.db.prepare(`INSERT INTO meta (key, value) VALUES ('files-stamp', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(stamp);
  }
  for (const agent of agents) {
    if (!isSqliteAgent(agent)) continue;
    if (signal?.aborted) break;
    for (const spec of await databaseSpecs(agent, io.env, io.platform)) await catchUpDatabase(index.db, indexer, spec, { ...options.databases, now: Date.now(), log: options.log });
  }
  return indexed + indexer.flush();
};

/** `agentwatch search`: open, catch up, and hand the index to the query. */
export const openCaughtUpIndex = async (
  io: CliIo,
  loaded: Loaded,
  options: { readonly reindex: boolean; readonly log: Logger; readonly startSources: StartSources },
): Promise<OpenedIndex> => {
  const index = openIndex(io.env, scopeOf(loaded), options);
  try {
    await catchUp(io, loaded, index, { log: options.log, startSources: options.startSources });
    return index;
  } catch (error) {
    // A disk that cannot take what was read (full, read-only, locked) still lets the index answer
    // from what it holds; the next search catches up again.
    const fault = storageFault(error);
    if (fault !== undefined) {
      options.log.warn(`search index ${searchDbPath(io.env)} cannot be written (${describeFault(fault)}); searching what it holds`);
      return index;
    }
    index.db.close();
    throw error;
  }
};

