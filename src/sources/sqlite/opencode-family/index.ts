import { filter, merge, mergeMap, type Observable, timer } from 'rxjs';
import type { Ctx, Source } from '../../../streams/contracts.js';
import type { SessionEvent } from '../../../core/session.js';
import type { SourceCtx } from '../../internal/options.js';
import { readyWhenAll } from '../../internal/ready-when-all.js';
import { DEFAULT_POLL_INTERVAL_MS, pollDatabase } from '../poll-source.js';
import type { FamilySpec } from './map.js';
import { openFamilyReader } from './reader.js';

export interface FamilySourceOptions {
  /** Poll interval; tests inject a short one. */
  readonly intervalMs?: number;
}

/**
 * A source for an agent of the opencode family: `dbPathsOf` resolves its databases (one per
 * release channel, opencode/paths.ts) from the environment of the context the source is started
 * with; each is polled on its own. While watching, the list is resolved again every poll interval:
 * a channel's database that appears later (a user tries a nightly build while agentwatch runs) is
 * polled from then on. The agent is ready by then, so such a poller's own `ready` is dropped.
 */
export const makeFamilySource =
  (spec: Omit<FamilySpec, 'dbPath'>, dbPathsOf: (ctx: Ctx) => readonly string[], options: FamilySourceOptions = {}): Source =>
  (ctx: Ctx | SourceCtx) => {
    const poll = (dbPath: string): Observable<SessionEvent> =>
      pollDatabase(ctx, {
        agent: spec.agent,
        label: spec.label,
        dbPath,
        openReader: openFamilyReader(spec),
        ...(options.intervalMs !== undefined ? { intervalMs: options.intervalMs } : {}),
      });
    const known = new Set(dbPathsOf(ctx));
    const sources = [...known].map(poll);
    const [only] = sources;
    const first = sources.length === 1 && only ? only : readyWhenAll(sources);
    if ('watch' in ctx && ctx.watch === false) return first;
    const interval = options.intervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    const later = timer(interval, interval, ctx.scheduler).pipe(
      mergeMap(() => {
        const added = dbPathsOf(ctx).filter((dbPath) => !known.has(dbPath));
        for (const dbPath of added) known.add(dbPath);
        return added;
      }),
      mergeMap((dbPath) => poll(dbPath).pipe(filter((event) => event.type !== 'ready'))),
    );
    return merge(first, later);
  };
