import type { SchedulerLike, Subscription } from 'rxjs';
import type { CliIo } from '../cli/io.js';
import type { Loaded } from '../config/load.js';
import { AGENT_KINDS, type AgentKind } from '../core/agents.js';
import type { Logger } from '../core/contracts.js';
import type { SessionEvent } from '../core/session.js';
import { excludedBy, openCaughtUpIndex } from './catch-up.js';
import { openSearchDb } from './index-db.js';
import { createIndexer } from './indexer.js';
import { searchIndex, type SearchResult } from './query.js';

/** New blocks become searchable this soon after the source read them. */
export const LIVE_FLUSH_MS = 250;

export interface LiveIndex {
  /** The pipeline's tap: every source event of the running monitor (no second read of any file). */
  readonly tap: (event: SessionEvent) => void;
  /** GET /api/search: the first call catches up what the index lacks, then it is kept live. */
  readonly search: (query: string, options: { readonly agents?: readonly AgentKind[]; readonly limit: number }) => Promise<SearchResult[]>;
  readonly close: () => void;
}

/** The search index of a running monitor: fed by the sources as they read, flushed every 250 ms. */
export const createLiveIndex = (io: CliIo, loaded: Loaded, scheduler: SchedulerLike, log: Logger): LiveIndex => {
  const excluded = excludedBy(loaded.config.exclude_cwd_substrings);
  let db = openSearchDb(io.env, log).db;
  let indexer = createIndexer(db, { excluded });
  let pending: Subscription | undefined;
  let caughtUp: Promise<void> | undefined;
  const enabled = AGENT_KINDS.filter((agent) => loaded.config.agents[agent]);
  const flush = (): void => {
    pending = undefined;
    try {
      indexer.flush();
    } catch (error) {
      log.warn(`search index: ${(error as Error).message}`);
    }
  };
  return {
    tap: (event) => {
      if (event.type !== 'turn' && event.type !== 'meta') return;
      indexer.add(event);
      pending ??= scheduler.schedule(flush, LIVE_FLUSH_MS);
    },
    search: async (query, options) => {
      caughtUp ??= (async () => {
        flush();
        db.close();
        ({ db } = await openCaughtUpIndex(io, loaded, enabled, { reindex: false, log }));
        indexer = createIndexer(db, { excluded });
      })();
      await caughtUp;
      flush();
      return searchIndex(db, query, { agents: new Set(options.agents ?? enabled), limit: options.limit, excluded });
    },
    close: () => {
      pending?.unsubscribe();
      flush();
      db.close();
    },
  };
};
