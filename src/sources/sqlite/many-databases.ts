import { readyWhenAll } from '../internal/ready-when-all.js';
import { filter, merge, mergeMap, Observable, timer } from 'rxjs';
import type { AgentKind } from '../../core/agents.js';
import type { SessionEvent } from '../../core/session.js';
import type { Ctx } from '../contracts.js';
import type { SourceCtx } from '../internal/options.js';
import { DEFAULT_POLL_INTERVAL_MS, pollDatabase } from './poll-source.js';
import type { OpenReader } from './reader.js';

/** One database of an agent that keeps several, and the reader bound to it. */
export interface AgentDatabase {
  readonly dbPath: string;
  readonly openReader: OpenReader;
}

export interface ManyDatabasesOptions {
  readonly agent: AgentKind;
  /** The agent's name in diagnostics. */
  readonly label: string;
  /** The databases to poll, resolved from the context's environment (and files it names). */
  readonly databasesOf: (ctx: Ctx) => readonly AgentDatabase[];
  /** Poll interval; tests inject a short one. */
  readonly intervalMs?: number;
}

/**
 * A source polling every database of an agent that keeps one per project (Crush), each on its own.
 * While watching, the list is resolved again every poll interval: a database that appears later
 * (a project opened for the first time) is polled from then on, its own `ready` dropped (the agent
 * is ready by then). With no database at all the agent is ready at once.
 */
export const pollManyDatabases =
  (options: ManyDatabasesOptions) =>
  (ctx: Ctx | SourceCtx): Observable<SessionEvent> => {
    const { agent, label } = options;
    const interval = options.intervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    const poll = (db: AgentDatabase): Observable<SessionEvent> =>
      pollDatabase(ctx, { agent, label, dbPath: db.dbPath, openReader: db.openReader, intervalMs: interval });
    const known = new Set<string>();
    const fresh = (): AgentDatabase[] => {
      const added = options.databasesOf(ctx).filter((db) => !known.has(db.dbPath));
      for (const db of added) known.add(db.dbPath);
      return added;
    };
    const initial = fresh();
    const first =
      initial.length === 0
        ? new Observable<SessionEvent>((subscriber) => {
            subscriber.next({ type: 'ready', agent });
            if ('watch' in ctx && ctx.watch === false) subscriber.complete();
          })
        : readyWhenAll(initial.map(poll));
    if ('watch' in ctx && ctx.watch === false) return first;
    const later = timer(interval, interval, ctx.scheduler).pipe(
      mergeMap(fresh),
      mergeMap((db) => poll(db).pipe(filter((event) => event.type !== 'ready'))),
    );
    return merge(first, later);
  };
