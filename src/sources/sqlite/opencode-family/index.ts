import { merge, Observable } from 'rxjs';
import type { Ctx, Source } from '../../../core/contracts.js';
import type { SessionEvent } from '../../../core/session.js';
import { pollDatabase } from '../poll-source.js';
import type { FamilySpec } from './map.js';
import { openFamilyReader } from './reader.js';

export interface FamilySourceOptions {
  /** Poll interval; tests inject a short one. */
  readonly intervalMs?: number;
}

/**
 * The events of several sources of one agent as one source: everything as it comes, and one
 * `ready` once every source has said its own (nobody lists the agent before all were read).
 */
const readyWhenAll = (sources: readonly Observable<SessionEvent>[]): Observable<SessionEvent> =>
  new Observable<SessionEvent>((subscriber) => {
    let waiting = sources.length;
    return merge(...sources).subscribe({
      next: (event) => {
        if (event.type !== 'ready') subscriber.next(event);
        else if (--waiting === 0) subscriber.next(event);
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
  });

/**
 * A source for an agent of the opencode family: `dbPathsOf` resolves its databases (one per
 * release channel, opencode/paths.ts) from the environment of the context the source is started
 * with; each is polled on its own.
 */
export const makeFamilySource =
  (spec: Omit<FamilySpec, 'dbPath'>, dbPathsOf: (ctx: Ctx) => readonly string[], options: FamilySourceOptions = {}): Source =>
  (ctx) => {
    const sources = dbPathsOf(ctx).map((dbPath) =>
      pollDatabase(ctx, {
        agent: spec.agent,
        dbPath,
        openReader: openFamilyReader(spec),
        ...(options.intervalMs !== undefined ? { intervalMs: options.intervalMs } : {}),
      }),
    );
    const [only] = sources;
    return sources.length === 1 && only ? only : readyWhenAll(sources);
  };
