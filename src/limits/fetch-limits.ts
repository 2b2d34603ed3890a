import { catchError, defaultIfEmpty, forkJoin, from, map, of, tap, type Observable, type OperatorFunction } from 'rxjs';
import type { LimitAgent } from '../core/agents.js';
import type { LimitsCtx } from './context.js';
import { runProvider } from './provider.js';
import { claudeProvider } from '../sources/claude/limits.js';
import { codexProvider } from '../sources/codex/limits.js';
import { codexSessionsRoot, newestCodexSnapshot, withCodexSnapshot } from '../sources/codex/limits-snapshot.js';
import { cursorProvider } from '../sources/cursor/limits.js';
import { grokProvider } from '../sources/grok/limits.js';
import { kimiProvider } from '../sources/kimi/limits.js';
import { recordLimitsRead } from './last-read.js';
import { limitsJson } from './render-json.js';
import type { Outcome, Outcomes } from './types.js';

/** One cold outcome$ per agent; a new agent is a compile error until it is wired here. */
const PROVIDERS = {
  claude: (ctx) => runProvider(claudeProvider, ctx),
  // The live answer and Codex's own snapshot are read at the same time and shown together.
  codex: (ctx) =>
    forkJoin([runProvider(codexProvider, ctx), from(newestCodexSnapshot(ctx).catch(() => undefined))]).pipe(
      map(([live, snapshot]) => withCodexSnapshot(live, snapshot, codexSessionsRoot(ctx), ctx.now())),
    ),
  grok: (ctx) => runProvider(grokProvider, ctx),
  kimi: (ctx) => runProvider(kimiProvider, ctx),
  cursor: (ctx) => runProvider(cursorProvider, ctx),
} as const satisfies Record<LimitAgent, (ctx: LimitsCtx) => Observable<Outcome>>;

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
export const fetchLimits = (ctx: LimitsCtx, agents: readonly LimitAgent[]): Observable<Outcomes> =>
  collectOutcomes(Object.fromEntries(agents.map((agent) => [agent, PROVIDERS[agent](ctx)]))).pipe(
    // Every on-demand read is what /metrics reports as "the last read" (metrics never poll).
    tap((outcomes) => recordLimitsRead(limitsJson(outcomes, ctx.now()), ctx.now())),
  );
