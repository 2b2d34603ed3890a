import type Database from 'better-sqlite3';
import { first, firstValueFrom, from, race, timer, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { CliIo } from '../core/io.js';
import type { Config } from '../config/effective.js';
import type { Loaded } from '../config/load.js';
import { loadSessionNames, type SessionNames } from '../config/session-names.js';
import type { AgentKind } from '../core/agents.js';
import type { Logger, SessionsState, Teardown } from '../core/contracts.js';
import type { SessionEvent } from '../core/session.js';
import type { Sink } from '../streams/sink.js';
import { catchUp, openIndex, scopeOf, type OpenedIndex, type StartSources } from './catch-up.js';
import { openMemorySearchDb, searchCursorPath, searchDbPath } from './index-db.js';
import { createIndexer, type Indexer } from './indexer.js';
import { excludedBy, type IndexScope } from './scope.js';
import { searchIndex, type SearchResult } from './query.js';
import { SearchUnavailableError } from './unavailable.js';
import { releasePageCache } from '../util/sqlite-memory.js';
import { describeFault, storageFault, type StorageFault } from '../util/storage-fault.js';
import { describeDegraded, markDegraded, markRecovered } from '../util/storage-health.js';

/** New messages become searchable this soon after a source read them. */
const LIVE_FLUSH_MS = 100;
/** Messages a monitor's catch-up writes at once: each write is a pause of the one thread that also serves. */
const CATCH_UP_SLICE = 500;
/**
 * How long after the first listing the catch-up starts: the interfaces fetch and draw that listing
 * first, and a monitor stopped right after it does not start reading for nothing.
 */
const CATCH_UP_AFTER_MS = 2_000;
/** How long a search waits for a running catch-up before it answers with what is indexed so far. */
const SEARCH_WAIT_MS = 10_000;

export interface LiveIndex {
  /** The pipeline's tap: every source event of the running monitor (no second read of any file). */
  readonly tap: (event: SessionEvent) => void;
  /**
   * The monitor's folded state, whose offsets become the index's once it has caught up: what the
   * monitor read (and the tap indexed) is not read again by the next `agentwatch search`. Its
   * sessions' facts are the results' (the last activity its lists show).
   */
  readonly follow: (state$: Observable<SessionsState>) => void;
  /**
   * GET /api/search and the TUI's `s`: what the index holds. While it still catches up (what was
   * written while no agentwatch indexed, read after the first listing is out), a search waits for
   * that up to SEARCH_WAIT_MS, then answers with what is indexed so far (`indexing` says so).
   * Hits are marked with HIT_OPEN/HIT_CLOSE (`toJsonResults` for the wire).
   */
  readonly search: (query: string, options: { readonly agents?: readonly AgentKind[]; readonly limit: number }) => Promise<SearchResult[]>;
  /** True while the index catches up: a search answers with part of the history. */
  readonly indexing: () => boolean;
  readonly close: () => Promise<void>;
}

/**
 * The index as a sink of the monitor's pipeline, plugged in when the pipeline is made (the
 * interfaces search it from their start). It outlives the pipeline: it is also the sources' tap,
 * so the monitor closes it once the sources have stopped.
 */
export const searchIndexSink =
  (index: LiveIndex): Sink =>
  ({ state$ }) => {
    index.follow(state$);
    return () => undefined;
  };

/**
 * What both indexes share: the tap that takes user/assistant messages and names as the sources
 * read them, the write of what it took, at most LIVE_FLUSH_MS after a message, and the search of
 * the config's scope, which writes what is pending first, with the sessions' facts as the
 * monitor's fold has them and the user's names (the title and last activity its lists show), of
 * the agents the monitor watches (`agentwatch --agent codex` searches Codex only, as it lists). A
 * write burst (a cold start indexes every message) leaves pages in the connection's cache that
 * nothing reads again: given back after each write that wrote, as the discovery cache does.
 */
const createFeed = (
  db: Database.Database,
  indexer: Indexer,
  scope: IndexScope,
  scheduler: SchedulerLike,
  log: Logger,
  scopeNow: () => IndexScope = () => scope,
  namesNow: () => Promise<SessionNames> = () => Promise.resolve({}),
  watched: readonly AgentKind[] = scope.agents,
  file = ':memory:',
) => {
  let pending: Subscription | undefined;
  let closed = false;
  let latest: SessionsState | undefined;
  let following: Subscription | undefined;
  const follow = (state$: Observable<SessionsState>): void => {
    following?.unsubscribe();
    following = state$.subscribe((state) => {
      latest = state;
    });
  };
  /** False when the index could not take what was pending. */
  const flush = (): boolean => {
    pending?.unsubscribe();
    pending = undefined;
    if (closed) return true;
    try {
      if (indexer.flush() > 0) releasePageCache(db);
      if (markRecovered('search index')) log.info(`search index ${file} can be written again`);
      return true;
    } catch (error) {
      // A disk fault is said once, not at every flush; what was not written is caught up by the
      // next search's catch-up (the offsets are saved only after the index).
      const fault = storageFault(error);
      if (fault === undefined) log.warn(`search index: ${(error as Error).message}`);
      else {
        const entry = { store: 'search index', file, fault, meanwhile: 'new messages are not indexed', since: Date.now() } as const;
        if (markDegraded(entry)) log.warn(describeDegraded(entry));
      }
      return false;
    }
  };
  const tap = (event: SessionEvent): void => {
    if (closed || (event.type !== 'turn' && event.type !== 'meta' && event.type !== 'restore')) return;
    indexer.add(event);
    if (event.type === 'turn') pending ??= scheduler.schedule(flush, LIVE_FLUSH_MS);
  };
  const search: LiveIndex['search'] = async (query, options) => {
    const customNames = await namesNow();
    if (latest && !closed) for (const session of latest.sessions.values()) indexer.observe(session);
    flush();
    // The config as it is now (the Settings panel may have excluded a folder or switched an
    // agent off since the index opened): what every other interface hides, search hides too.
    const now = scopeNow();
    const agents = (options.agents ?? scope.agents).filter((agent) => scope.agents.includes(agent) && now.agents.includes(agent) && watched.includes(agent));
    const excludeCwd = [...new Set([...scope.excludeCwd, ...now.excludeCwd])];
    return searchIndex(db, query, { agents, limit: options.limit, excludeCwd, customNames });
  };
  /** Writes what is pending, then takes nothing more. */
  const close = (): void => {
    following?.unsubscribe();
    flush();
    closed = true;
  };
  return { tap, follow, flush, search, close, isClosed: () => closed };
};

/** Waits between attempts to open an index its disk refused; the last repeats. */
const REOPEN_DELAYS_MS: readonly number[] = [1_000, 5_000, 30_000, 60_000];

/**
 * The search index of a running monitor: fed by the sources as they read, written every 100 ms.
 * The first discovery is not slowed by it: the tap takes nothing until the first listing is out;
 * shortly after, the index catches up (the sources run once more from the index's own offsets, in
 * writes of CATCH_UP_SLICE messages between the reads' time slices) and the tap takes what the
 * monitor reads from then on (a message both read is indexed once). A search before the first listing starts the
 * catch-up at once.
 * The index keeps the config's scope (a narrower one would be a scope that later widens, and
 * rebuild it); `watched`, the agents the monitor was started for, narrows what a search returns.
 * An index its disk refuses (full, read-only, forbidden, locked) never stops the monitor: searches
 * answer SearchUnavailableError, said once, and the index is opened again with backoff (it then
 * catches up what was written meanwhile).
 */
export const createLiveIndex = (
  io: CliIo,
  loaded: Loaded,
  startSources: StartSources,
  scheduler: SchedulerLike,
  log: Logger,
  configNow: () => Config = () => loaded.config,
  watched?: readonly AgentKind[],
): LiveIndex => {
  const scope = scopeOf(loaded);
  const file = searchDbPath(io.env);
  const names = async (): Promise<SessionNames> => (await loadSessionNames(io.env)).names;
  let opened: { readonly index: OpenedIndex; readonly feed: ReturnType<typeof createFeed> } | undefined;
  let refused: StorageFault | undefined;
  let reopen: Subscription | undefined;
  let attempt = 0;
  let closed = false;
  let caughtUp: Promise<void> | undefined;
  let catching = false;
  /** Whether the tap indexes what the monitor reads: from the start of the first catch-up on. */
  let tapping = false;
  let listed = false;
  let waitForListing: Subscription | undefined;
  let afterListing: Subscription | undefined;
  const stopping = new AbortController();
  let state$: Observable<SessionsState> | undefined;
  let persisting: { readonly stop: Teardown; readonly close: () => void } | undefined;

  /** From now on the monitor's checkpoints are the index's offsets (written after the index itself). */
  const startPersisting = async (): Promise<void> => {
    if (!state$ || persisting || !opened || opened.feed.isClosed() || closed) return;
    const { feed } = opened;
    const registry = await import('../sources/index.js');
    if (closed) return;
    const cache = registry.openDiscoveryCache(io.env, log, searchCursorPath(io.env));
    // Offsets the index could not take are not saved: the next catch-up reads those lines again.
    const guarded = { ...cache, write: (...args: Parameters<typeof cache.write>) => void (feed.flush() && cache.write(...args)) };
    persisting = { stop: registry.persistCache(state$, guarded, scheduler), close: cache.close };
  };

  /** Starts the catch-up unless one runs or is done; what the monitor reads from now on is tapped. */
  const startCatchUp = (): Promise<void> | undefined => {
    if (!opened || closed) return caughtUp;
    tapping = true;
    if (caughtUp) return caughtUp;
    const { index } = opened;
    catching = true;
    // A failed catch-up (a read that timed out) is said and tried again by the next search.
    caughtUp = catchUp(io, loaded, index, { log, startSources, flushEvery: CATCH_UP_SLICE, signal: stopping.signal }).then(
      () => {
        catching = false;
        return startPersisting();
      },
      (error: unknown) => {
        catching = false;
        caughtUp = undefined;
        if (!closed) log.warn(`search: catching up the index failed (${(error as Error).message}); searching what it holds`);
      },
    );
    return caughtUp;
  };

  const tryOpen = (): void => {
    let index: OpenedIndex;
    try {
      index = openIndex(io.env, scope, { reindex: false, log });
    } catch (error) {
      const fault = storageFault(error);
      if (fault === undefined) throw error;
      refused = fault;
      const entry = { store: 'search index', file, fault, meanwhile: 'search answers nothing', since: Date.now() } as const;
      if (markDegraded(entry)) log.warn(describeDegraded(entry));
      reopen = scheduler.schedule(() => {
        reopen = undefined;
        if (!closed) tryOpen();
      }, REOPEN_DELAYS_MS[Math.min(attempt++, REOPEN_DELAYS_MS.length - 1)]);
      return;
    }
    refused = undefined;
    const feed = createFeed(index.db, index.indexer, scope, scheduler, log, () => scopeOf({ config: configNow() }), names, watched, file);
    if (state$) feed.follow(state$);
    opened = { index, feed };
    if (markRecovered('search index')) log.info(`search index ${file} can be opened again`);
    if (listed) void startCatchUp();
  };
  tryOpen();

  return {
    tap: (event) => {
      if (tapping) opened?.feed.tap(event);
    },
    follow: (states) => {
      state$ = states;
      opened?.feed.follow(states);
      waitForListing?.unsubscribe();
      // Once the first listing is out and drawn (a search meanwhile starts it at once).
      waitForListing = states.pipe(first((state) => state.ready)).subscribe(() => {
        listed = true;
        afterListing = scheduler.schedule(() => void startCatchUp(), CATCH_UP_AFTER_MS);
      });
    },
    search: async (query, options) => {
      if (!opened) throw new SearchUnavailableError(`the search index ${file} cannot be opened (${describeFault(refused ?? 'io')}); it is tried again by itself`);
      const { feed } = opened;
      const running = startCatchUp();
      if (running && catching) await firstValueFrom(race(from(running), timer(SEARCH_WAIT_MS, scheduler)));
      return feed.search(query, options);
    },
    indexing: () => catching,
    close: async () => {
      closed = true;
      waitForListing?.unsubscribe();
      afterListing?.unsubscribe();
      reopen?.unsubscribe();
      stopping.abort();
      await caughtUp?.catch(() => undefined);
      await persisting?.stop();
      persisting?.close();
      opened?.feed.close();
      opened?.index.db.close();
      if (refused !== undefined) markRecovered('search index');
    },
  };
};

/**
 * The search of `--demo`: an index in memory fed by the generated sessions only, so the demo's
 * search box and `GET /api/search` work as they do on real data while the
 * user's own index is neither read nor written.
 */
export const createDemoIndex = (loaded: Loaded, scheduler: SchedulerLike, log: Logger, configNow: () => Config = () => loaded.config, watched?: readonly AgentKind[]): LiveIndex => {
  const scope = scopeOf(loaded);
  const db = openMemorySearchDb();
  const feed = createFeed(db, createIndexer(db, { excluded: excludedBy(scope.excludeCwd) }), scope, scheduler, log, () => scopeOf({ config: configNow() }), undefined, watched);
  return {
    tap: feed.tap,
    follow: feed.follow,
    search: feed.search,
    indexing: () => false,
    close: async () => {
      feed.close();
      db.close();
    },
  };
};
