/**
 * The composition root of the session pipeline:
 *
 *   sources (one per enabled agent, or the demo) -> merge -> batch -> fold (pure) -> frames
 *   wake$ (next deadline, ctx.scheduler) --------------------^        |-> state$, transitions$
 *
 * How a sink uses it (API, TUI, webhooks, notifier, discovery cache):
 *
 *   const pipeline = startPipeline(ctx, { sources, agents });
 *   pipeline.state$.subscribe((state) => render(pipeline.views.summaries(state, { now: ctx.now(), customNames })));
 *   pipeline.transitions$.subscribe((t) => post(t));       // activity changes, after `ready`
 *   await pipeline.dispose();                               // closes sources, sinks, timers
 *
 * or pass `sinks: [mySink]` (contract `Sink` in core/contracts.ts): each gets the shared streams
 * and returns its teardown, awaited by `dispose()`. The discovery cache hooks in the same way: its
 * writer subscribes to `state$` and persists sessions whose `checkpoint` is set
 * (`persistCache(pipeline.state$, cache, ctx.scheduler)` from src/sources, as `sessions` and the
 * monitor do, or `sinks: [(streams, ctx) => persistCache(streams.state$, cache, ctx.scheduler)]`);
 * its warm-start `restore` events come out of the sources (`SourceCtx.cache`).
 *
 * `state$` emits on every batch of events and whenever a session's deadline passes, so time-derived activities
 * (waiting -> idle) re-render without new records; `frame$` carries the activities at `now`.
 */
import {
  catchError,
  connectable,
  distinctUntilChanged,
  EMPTY,
  endWith,
  map,
  merge,
  mergeMap,
  NEVER,
  of,
  ReplaySubject,
  scan,
  startWith,
  Subject,
  switchMap,
  tap,
  timer,
  type Observable,
} from 'rxjs';
import type { AgentKind } from './core/agents.js';
import type { Ctx, Sink, SessionsState, Source, Teardown } from './core/contracts.js';
import type { DiagnosticEvent, SessionDetail, SessionEvent, SessionSummary, Transition } from './core/session.js';
import type { SessionNames } from './config/session-names.js';
import { demoSource } from './demo/source.js';
import { batchSync } from './streams/batch.js';
import { initialFrame, stepFrame, type FoldInput, type PipelineFrame } from './streams/frames.js';
import { toDetail, toSummary } from './streams/views.js';
import { selectVisible, type VisibilityOptions } from './streams/visibility.js';
import type { WorktreeLookup } from './streams/worktree.js';

export interface PipelineOptions {
  /** The source registry (src/sources/index.ts); agents without an entry are skipped. */
  readonly sources: Partial<Record<AgentKind, Source>>;
  /** Enabled agents: config `agents` intersected with `--agent`. */
  readonly agents: readonly AgentKind[];
  /** Generated sessions instead of the real sources (`--demo`). */
  readonly demo?: boolean;
  readonly sinks?: readonly Sink[];
  /** Sees every source event before the fold (the search index takes turn texts from here). */
  readonly tap?: (event: SessionEvent) => void;
}

/** What a listing needs besides the state: the time, the user's names, and optionally other visibility. */
export interface ListOptions {
  readonly now: number;
  readonly customNames?: SessionNames;
  /** Defaults to the pipeline's `visibility` (config window, exclusions, enabled agents). */
  readonly visibility?: VisibilityOptions;
}

/** The listed sessions of a state as wire objects, newest first. */
export interface PipelineViews {
  readonly summaries: (state: SessionsState, options: ListOptions) => SessionSummary[];
  readonly details: (state: SessionsState, options: ListOptions & { readonly worktree: WorktreeLookup }) => SessionDetail[];
}

export interface Pipeline {
  /** Every fold result: state, activities at `now`, transitions. Replays the latest to late subscribers. */
  readonly frame$: Observable<PipelineFrame>;
  /** The folded sessions; emits on every batch of events and at every deadline. Replays the latest. */
  readonly state$: Observable<SessionsState>;
  /** Activity changes (first sight emits none; nothing during the first discovery pass). */
  readonly transitions$: Observable<Transition>;
  /**
   * Every diagnostic the sources reported, with file and line (the fold keeps only counts).
   * Replays the latest DIAGNOSTICS_KEPT to late subscribers: `doctor`, one-shot commands, the UIs.
   */
  readonly diagnostics$: Observable<DiagnosticEvent>;
  /** The agents whose sources run (enabled and registered, or every enabled agent in demo mode). */
  readonly agents: readonly AgentKind[];
  /** Default listing options from the config: window, exclusions, enabled agents (the latest set). */
  readonly visibility: VisibilityOptions;
  /**
   * Replace the listing options while running (the Settings panel): every session is re-derived
   * at once, so window-edge deadlines follow the new window and listeners get a fresh frame.
   */
  readonly setVisibility: (next: VisibilityOptions) => void;
  readonly views: PipelineViews;
  readonly dispose: () => Promise<void>;
}

/**
 * A broken source becomes a diagnostic (and counts as ready) instead of ending the pipeline; a
 * source that completes (one-shot mode) counts as ready too, so nobody waits for it in vain.
 */
const guarded = (agent: AgentKind, source: Source, ctx: Ctx): Observable<SessionEvent> =>
  source(ctx).pipe(
    endWith<SessionEvent>({ type: 'ready', agent }),
    catchError((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      ctx.log.warn(`${agent}: source failed: ${message}`);
      return of<SessionEvent[]>(
        { type: 'diagnostic', agent, code: 'E_READ', message: `source failed: ${message}` },
        { type: 'ready', agent },
      );
    }),
  );

const sourceEvents = (ctx: Ctx, options: PipelineOptions, agents: readonly AgentKind[]): Observable<SessionEvent> => {
  if (options.demo) return demoSource(ctx.scheduler, agents, ctx.now);
  return merge(...agents.map((agent) => {
    const source = options.sources[agent];
    return source ? guarded(agent, source, ctx) : EMPTY;
  }));
};

/** Diagnostics kept for late readers; counts are unbounded in the state, details are not. */
export const DIAGNOSTICS_KEPT = 1_000;

/** Start the pipeline at once (sources subscribe now) and keep it running until `dispose()`. */
export const startPipeline = (ctx: Ctx, options: PipelineOptions): Pipeline => {
  const agents = options.demo ? [...options.agents] : options.agents.filter((agent) => options.sources[agent] !== undefined);
  const diagnostics = new ReplaySubject<DiagnosticEvent>(DIAGNOSTICS_KEPT);
  const events$ = sourceEvents(ctx, options, agents).pipe(
    tap((event) => {
      if (event.type === 'diagnostic') diagnostics.next(event);
      options.tap?.(event);
    }),
    batchSync(ctx.scheduler),
  );
  // Time enters only at deadlines: one timer, set to the earliest instant at which time alone can
  // change a session (deadlines.ts), re-armed after every frame. A quiet monitor sleeps.
  const wakeAt$ = new Subject<number>();
  const wakes$ = wakeAt$.pipe(
    distinctUntilChanged(),
    switchMap((at) => (Number.isFinite(at) ? timer(Math.max(0, at - ctx.now()), ctx.scheduler) : NEVER)),
    map((): FoldInput => ({ events: [], now: ctx.now() })),
  );
  let visibility: VisibilityOptions = {
    windowMinutes: ctx.config.window_minutes,
    excludeCwdSubstrings: ctx.config.exclude_cwd_substrings,
    agents: new Set(options.agents),
  };
  const rederive$ = new Subject<void>();
  const inputs$: Observable<FoldInput> = merge(
    events$.pipe(map((events) => ({ events, now: ctx.now() }))),
    wakes$,
    rederive$.pipe(map((): FoldInput => ({ events: [], now: ctx.now(), rederive: true }))),
  );
  const frameOptions = {
    get windowMs() {
      return visibility.windowMinutes === undefined ? undefined : visibility.windowMinutes * 60_000;
    },
  };
  // NOTE: the first frame is emitted synchronously so `state$` has a value before any source speaks.
  const first = initialFrame(agents, ctx.now());
  const stepped$ = inputs$.pipe(
    scan((frame: PipelineFrame, input: FoldInput) => stepFrame(frame, input, frameOptions), first),
    tap((frame) => wakeAt$.next(frame.nextWakeAt)),
  );
  const frames = connectable(stepped$.pipe(startWith(first)), {
    connector: () => new ReplaySubject<PipelineFrame>(1),
    resetOnDisconnect: false,
  });
  const connection = frames.connect();
  const frame$: Observable<PipelineFrame> = frames;
  const state$ = frame$.pipe(map((frame): SessionsState => frame.state));
  const transitions$ = frame$.pipe(mergeMap((frame) => frame.transitions));
  const teardowns: Teardown[] = (options.sinks ?? []).map((sink) => sink({ state$, transitions$ }, ctx));
  let disposed: Promise<void> | undefined;
  // NOTE: sinks are told first (they already hold the latest state), then the sources and the
  // wake timer stop synchronously, so virtual-time tests end; only the sinks' own teardowns are awaited.
  const dispose = (): Promise<void> => {
    if (disposed) return disposed;
    const settled = Promise.allSettled(teardowns.map(async (teardown) => teardown()));
    connection.unsubscribe();
    disposed = settled.then((results) => {
      for (const result of results) if (result.status === 'rejected') ctx.log.warn(`sink teardown failed: ${String(result.reason)}`);
    });
    return disposed;
  };
  const listed = (state: SessionsState, options: ListOptions) => selectVisible(state.sessions.values(), options.now, options.visibility ?? visibility);
  const views: PipelineViews = {
    summaries: (state, options) => listed(state, options).map((s) => toSummary(s, { now: options.now, customNames: options.customNames ?? {} })),
    details: (state, options) =>
      listed(state, options).map((s) => toDetail(s, { now: options.now, customNames: options.customNames ?? {}, worktree: options.worktree(s.cwd) })),
  };
  const setVisibility = (next: VisibilityOptions): void => {
    visibility = next;
    rederive$.next();
  };
  return {
    frame$,
    state$,
    transitions$,
    diagnostics$: diagnostics.asObservable(),
    agents,
    get visibility() {
      return visibility;
    },
    setVisibility,
    views,
    dispose,
  };
};
