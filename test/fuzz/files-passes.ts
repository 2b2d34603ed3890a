import path from 'node:path';
import { type Observable, scan, share } from 'rxjs';
import type { Source } from '../../src/sources/contracts.js';
import type { SessionEvent, SessionState } from '../../src/core/session.js';
import { openDiscoveryCache, type DiscoveryCache } from '../../src/sources/internal/cache.js';
import type { JsonlAgentSpec } from '../../src/sources/internal/file-parser.js';
import { createFileTracker } from '../../src/sources/internal/file-tracker.js';
import type { FileTracker } from '../../src/sources/internal/file-tracker-types.js';
import type { SourceCtx } from '../../src/sources/internal/options.js';
import { persistCache } from '../../src/sources/internal/persist-cache.js';
import type { ReadOptions } from '../../src/sources/internal/read-lines.js';
import { levelsBelow } from '../../src/sources/internal/walk.js';
import { initialFoldState, reduceSessions } from '../../src/streams/sessions-reducer.js';
import { foldById, makeCtx } from '../helpers/source-harness.js';
import type { TempHome } from '../helpers/temp-home.js';
import type { FuzzAgent } from './files-agents.js';

/** How the file-source fuzz tests run a source: a one-shot pass, a pass with the discovery cache, the engine's file tracker. */

export interface Pass {
  readonly events: SessionEvent[];
  readonly errors: unknown[];
  readonly sessions: Map<string, SessionState>;
}

/** `source`'s one-shot pass (`watch: false`) on `ctx`: its events until it completes, and its errors (thousands of passes: no polling). */
const collect = (events$: Observable<SessionEvent>): Promise<{ events: SessionEvent[]; errors: unknown[] }> =>
  new Promise((resolve) => {
    const events: SessionEvent[] = [];
    events$.subscribe({ next: (event) => events.push(event), error: (error: unknown) => resolve({ events, errors: [error] }), complete: () => resolve({ events, errors: [] }) });
  });

/** One one-shot pass (`watch: false`) of `source` on `ctx`, to its completion. */
export const onePass = async (source: Source, ctx: SourceCtx): Promise<Pass> => {
  const oneShot: SourceCtx = { ...ctx, watch: false };
  const { events, errors } = await collect(source(oneShot));
  return { events, errors, sessions: foldById(events) };
};

/**
 * One one-shot pass with the discovery cache wired as the composition root wires it (the
 * persister follows the fold and writes on stop): source-harness.ts `passWithCache`, without polling.
 */
export const passWithCache = async (source: Source, ctx: SourceCtx): Promise<SessionEvent[]> => {
  const cache = openDiscoveryCache(ctx.env);
  try {
    const withCache: SourceCtx = { ...ctx, cache, watch: false };
    const events$ = source(withCache).pipe(share());
    const state$ = events$.pipe(scan((state, event) => reduceSessions(state, [event]).state, initialFoldState([])));
    const stop = persistCache(state$, cache, ctx.scheduler);
    const { events } = await collect(events$);
    await stop();
    return events;
  } finally {
    cache.close();
  }
};

/** The tracker a JSONL source builds for `spec` (jsonl-source.ts), without side files or watchers. */
export const trackerOf = (spec: JsonlAgentSpec, emit: (event: SessionEvent) => void, cache?: DiscoveryCache, read?: ReadOptions): FileTracker =>
  createFileTracker({
    agent: spec.agent,
    createParser: spec.createParser,
    emit,
    cache,
    sideMeta: () => undefined,
    read,
    familyOf: spec.familyOf,
    twinRank: spec.twinRank,
    twinsOf: spec.twinsOf,
  });

/** The session id `file` classifies as under `spec`'s roots (what the engine hands `sync`). */
export const classifyIn = (spec: JsonlAgentSpec, file: string): string | undefined => {
  for (const root of spec.roots) {
    const level = levelsBelow(root.dir, path.dirname(file));
    if (level >= 0 && level <= root.depth) {
      const id = spec.classify(root.dir, file);
      if (id !== undefined) return id;
    }
  }
  return undefined;
};

export const specFor = (agent: FuzzAgent, home: TempHome, extra: Partial<SourceCtx> = {}): JsonlAgentSpec => {
  if (!agent.spec) throw new Error(`${agent.agent} has no JSONL spec`);
  return agent.spec(makeCtx(home.env, extra));
};
