import { catchError, defaultIfEmpty, defer, forkJoin, mergeMap, of, tap, type Observable, type OperatorFunction } from 'rxjs';
import type { LimitAgent } from '../core/agents.js';
import type { LimitsCtx } from './context.js';
import { recordLimitsRead } from './last-read.js';
import type { LimitsProvider } from './provider.js';
import { limitsJson } from './render-json.js';
import type { Outcome, Outcomes } from './types.js';

/** Each agent's limits provider, loaded when first asked for (the registry's `agentLimits`). */
export type LimitsProviders = Readonly<Record<LimitAgent, () => Promise<LimitsProvider>>>;

/**
 * The last line of defence before forkJoin, which errors on any error and emits nothing when
 * an input completes empty: whatever a provider does, it ends in exactly one Outcome.
 */
const guardOutcome =
  (agent: LimitAgent): OperatorFunction<Outcome, Outcome> =>
  (outcome$) =>
    outcome$.pipe(
      catchError((error: unknown) => of<Outcome>({ kind: 'failed', agent, code: 'E_INTERNAL', message: error instanceof Error ? error.message : String(error) })),
      defaultIfEmpty<Outcome, Outcome>({ kind: 'failed', agent, code: 'E_INTERNAL', message: 'the provider produced no result' }),
    );

/** Runs the given provider observables concurrently and emits one record when all have ended. */
export const collectOutcomes = (providers: Partial<Record<LimitAgent, Observable<Outcome>>>): Observable<Outcomes> => {
  const guarded: Partial<Record<LimitAgent, Observable<Outcome>>> = {};
  for (const [agent, outcome$] of Object.entries(providers) as [LimitAgent, Observable<Outcome>][]) guarded[agent] = outcome$.pipe(guardOutcome(agent));
  return Object.keys(guarded).length === 0 ? of({}) : (forkJoin(guarded) as Observable<Outcomes>);
};

/**
 * The limits of `agents`, each queried once, all at the same time. Usable outside the CLI (the
 * TUI's limits modal subscribes on entry and on `r`); never polls.
 */
export const fetchLimits = (ctx: LimitsCtx, agents: readonly LimitAgent[], providers: LimitsProviders): Observable<Outcomes> =>
  collectOutcomes(Object.fromEntries(agents.map((agent) => [agent, defer(() => providers[agent]()).pipe(mergeMap((provider) => provider(ctx)))]))).pipe(
    // Every on-demand read is what /metrics reports as "the last read" (metrics never poll).
    tap((outcomes) => recordLimitsRead(limitsJson(outcomes, ctx.now()), ctx.now())),
  );
