/**
 * The composition root of the session pipeline:
 *
 *   sources (one per enabled agent, or the demo) -> merge -> batch -> fold (pure) -> frames
 *   wake$ (next deadline, ctx.scheduler) --------------------^        |-> state$, transitions$
 *
 * How a sink uses it (API, TUI, webhooks, notifier, discovery cache):
 *
 *   const pipeline = startPipeline(ctx, { sources, agents });
 *   pipeline.frame$.subscribe(() => render(pipeline.listing.refresh()));  // the read model, streams/listing.ts
 *   pipeline.transitions$.subscribe((t) => post(t));       // activity changes, after `ready`
 *   await pipeline.dispose();                               // closes sources, sinks, timers
 *
 * or pass `sinks: [mySink]` (contract `Sink` in streams/sink.ts), or `start(sinks)` when the
 * sources are deferred: each gets the shared streams and returns its teardown, awaited by `dispose()`. The discovery cache hooks in the same way: its
 * writer subscribes to `state$` and persists sessions whose `checkpoint` is set
 * (`persistCache(pipeline.state$, cache, ctx.scheduler)` from src/sources, as `sessions` and the
 * monitor do, or `sinks: [(streams, ctx) => persistCache(streams.state$, cache, ctx.scheduler)]`);
 * its warm-start `restore` events come out of the sources (`SourceCtx.cache`).
 *
 * `state$` emits on every batch of events and whenever a session's deadline passes, so time-derived activities
 * (waiting -> idle) re-render without new records; `frame$` carries the activities at `now`.
 */
import { catchError, defer, EMPTY, distinctUntilChanged, endWith, map, merge, mergeMap, of, ReplaySubject, scan, Subject, Subscription, tap, type Observable } from 'rxjs';
import type { AgentKind } from '../core/agents.js';
import type { SessionsState, Teardown } from '../core/contracts.js';
import type { Ctx, Source } from '../sources/contracts.js';
import { teardownOf, type Sink, type SinkStreams } from '../streams/sink.js';
import { createListing, type Listing } from '../streams/listing.js';
import { sessionKey, type DiagnosticEvent, type SessionEvent, type SessionState, type Transition } from '../core/session.js';
import { demoSource } from '../demo/source.js';
import { DEMO_SESSIONS } from '../sources/agents.js';
import { batchSync } from '../streams/batch.js';
import { activityRules } from '../streams/activity.js';
import { initialFrame, stepFrame, type FoldInput, type PipelineFrame } from '../streams/frames.js';
import { windowMs, type VisibilityOptions } from '../streams/visibility.js';

export interface PipelineOptions {
  /** The source registry (src/sources/index.ts); agents without an entry are skipped. */
  readonly sources: Partial<Record<AgentKind, Source>>;
  /** Enabled agents: config `agents` intersected with `--agent`. */
  readonly agents: readonly AgentKind[];
  /** Generated sessions instead of the real sources (`--demo`). */
  readonly demo?: boolean;
  readonly sinks?: readonly Sink[];
  /**
   * Do not subscribe the sources until `start()`: the monitor first brings its servers up, so they
   * answer while the first discovery runs instead of waiting behind it.
   */
  readonly deferSources?: boolean;
  /** The context the sources get, made when they start (default: the pipeline's own). */
  readonly sourceCtx?: () => Ctx;
  /** Sees every source event before the fold (the search index takes turn texts from here). */
  readonly tap?: (event: SessionEvent) => void;
}

export interface Pipeline extends SinkStreams {
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
  /** What the config's window lists, up to date with every frame `frame$` has emitted (streams/listing.ts). */
  readonly listing: Listing;
  /** The agents whose sources run (enabled and registered, or every enabled agent in demo mode). */
  readonly agents: readonly AgentKind[];
  /** What every sink gets: the streams above, without the pipeline's controls. */
  readonly streams: SinkStreams;
  /** Default listing options from the config: window, exclusions, enabled agents (the latest set). */
  readonly visibility: VisibilityOptions;
  /**
   * Replace the listing options while running (the Settings panel): every session is re-derived
   * at once, so window-edge deadlines follow the new window and listeners get a fresh frame.
   */
  readonly setVisibility: (next: VisibilityOptions) => void;
  /**
   * Subscribes the sources (at once unless `deferSources`), after starting `sinks` so that they see
   * every transition; later calls do nothing.
   */
  readonly start: (sinks?: readonly Sink[]) => void;
  /**
   * Replaces sessions by states of the same content (a persisted state by its lazy twin, see
   * persist-cache.ts), each only while the fold still holds exactly `from`: a session that changed
   * since keeps its newer state. Synchronous. The listing sends nothing for it (same JSON).
   */
  readonly swapStates: (swaps: readonly { readonly from: SessionState; readonly to: SessionState }[]) => void;
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
  if (options.demo) return demoSource(ctx.scheduler, DEMO_SESSIONS, agents, ctx.now);
  return merge(...agents.map((agent) => {
    const source = options.sources[agent];
    return source ? guarded(agent, source, ctx) : EMPTY;
  }));
};

/** Diagnostics kept for late readers; counts are unbounded in the state, details are not. */
const DIAGNOSTICS_KEPT = 1_000;

/** Start the pipeline at once (sources subscribe now) and keep it running until `dispose()`. */
export const startPipeline = (ctx: Ctx, options: PipelineOptions): Pipeline => {
  const agents = options.demo ? [...options.agents] : options.agents.filter((agent) => options.sources[agent] !== undefined);
  const diagnostics = new ReplaySubject<DiagnosticEvent>(DIAGNOSTICS_KEPT);
  // The sources are made when the pipeline starts, with the context they get then (the discovery
  // cache is opened at start, after the caller's servers listen).
  const events$ = defer(() => sourceEvents(options.sourceCtx?.() ?? ctx, options, agents)).pipe(
    tap((event) => {
      if (event.type === 'diagnostic') diagnostics.next(event);
      options.tap?.(event);
    }),
    batchSync(ctx.scheduler),
  );
  // Time enters only at deadlines: one timer, armed for the earliest instant at which time alone
  // can change a session (`nextChangeAt`, window edges), re-armed after every frame. A quiet
  // monitor sleeps. A timer that fired early (the wall clock lags the timer clock by a
  // millisecond) finds nothing due, and the next frame arms it again for the same instant.
  const wakes$ = new Subject<FoldInput>();
  let armed: { readonly at: number; readonly timer: Subscription } | undefined;
  const arm = (at: number): void => {
    if (armed?.at === at) return;
    armed?.timer.unsubscribe();
    armed = undefined;
    if (!Number.isFinite(at)) return;
    const timer = ctx.scheduler.schedule(() => {
      armed = undefined;
      wakes$.next({ events: [], now: ctx.now() });
    }, Math.max(0, at - ctx.now()));
    armed = { at, timer };
  };
  let visibility: VisibilityOptions = {
    windowMinutes: ctx.config.window_minutes,
    excludeCwdSubstrings: ctx.config.exclude_cwd_substrings,
    agents: new Set(options.agents),
    waitingTimeoutMinutes: ctx.config.waiting_timeout_minutes,
  };
  let rules = activityRules(visibility.waitingTimeoutMinutes);
  const rederive$ = new Subject<void>();
  const swaps$ = new Subject<FoldInput>();
  const inputs$: Observable<FoldInput> = merge(
    events$.pipe(map((events) => ({ events, now: ctx.now() }))),
    wakes$,
    rederive$.pipe(map((): FoldInput => ({ events: [], now: ctx.now(), rederive: true }))),
    swaps$,
  );
  const frameOptions = {
    get windowMs() {
      return windowMs(visibility.windowMinutes);
    },
    get rules() {
      return rules;
    },
  };
  // NOTE: the first frame is there at once, so `state$` has a value before any source speaks
  // (and before the sources start, when the caller defers them until its servers listen).
  const first = initialFrame(agents, ctx.now());
  const frames = new ReplaySubject<PipelineFrame>(1);
  // The read model every interface of the config's window shares (TUI views of another window keep their own).
  const listing = createListing({ visibility: () => visibility });
  listing.push(first);
  frames.next(first);
  const connection = new Subscription(() => {
    armed?.timer.unsubscribe();
    armed = undefined;
  });
  let started = false;
  const teardowns: Teardown[] = [];
  const plug = (sinks: readonly Sink[]): void => {
    for (const sink of sinks) teardowns.push(teardownOf(sink(streams, ctx), (message) => ctx.log.warn(message)));
  };
  const start = (sinks: readonly Sink[] = []): void => {
    if (started || connection.closed) return;
    started = true;
    plug(sinks);
    connection.add(
      inputs$.pipe(scan((frame: PipelineFrame, input: FoldInput) => stepFrame(frame, input, frameOptions), first)).subscribe((frame) => {
        // The listing has each frame before anyone who follows the frames reads it.
        listing.push(frame);
        frames.next(frame);
        arm(frame.nextWakeAt);
      }),
    );
  };
  const frame$: Observable<PipelineFrame> = frames.asObservable();
  // A new value only when the state changed: frames that only moved time (a deadline passed)
  // carry the same state, and nobody that follows the state should walk it again for them.
  const state$ = frame$.pipe(
    map((frame): SessionsState => frame.state),
    distinctUntilChanged(),
  );
  const transitions$ = frame$.pipe(mergeMap((frame) => frame.transitions));
  const diagnostics$ = diagnostics.asObservable();
  const streams: SinkStreams = {
    frame$,
    state$,
    transitions$,
    diagnostics$,
    listing,
    agents,
    get visibility() {
      return visibility;
    },
  };
  if (options.deferSources !== true) start();
  plug(options.sinks ?? []);
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
  const setVisibility = (next: VisibilityOptions): void => {
    visibility = next;
    listing.invalidate();
    rules = activityRules(next.waitingTimeoutMinutes);
    rederive$.next();
  };
  let latestFrame = first;
  connection.add(frames.subscribe((frame) => (latestFrame = frame)));
  const swapStates: Pipeline['swapStates'] = (swaps) => {
    // The fold is synchronous: what `latestFrame` holds now is what the restores below replace.
    const sessions = latestFrame.state.sessions;
    const events: SessionEvent[] = swaps
      .filter(({ from }) => sessions.get(sessionKey(from)) === from)
      .map(({ to }) => ({ type: 'restore', agent: to.agent, sessionId: to.sessionId, state: to }));
    if (events.length > 0) swaps$.next({ events, now: ctx.now() });
  };
  return {
    frame$,
    state$,
    transitions$,
    diagnostics$,
    listing,
    agents,
    get visibility() {
      return visibility;
    },
    streams,
    setVisibility,
    start,
    swapStates,
    dispose,
  };
};
