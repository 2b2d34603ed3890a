import type { Observable } from 'rxjs';
import type { AgentKind } from '../core/agents.js';
import type { SessionsState, Teardown } from '../core/contracts.js';
import type { DiagnosticEvent, Transition } from '../core/session.js';
import type { Ctx } from '../sources/contracts.js';
import type { PipelineFrame } from './frames.js';
import type { Listing } from './listing.js';
import type { VisibilityOptions } from './visibility.js';

// Apart from the source contract (contracts.ts): sources must not reach the read model, even by type.

/** The pipeline's shared streams, as every sink gets them. */
export interface SinkStreams {
  /** Every frame of the fold (state, activities, what it touched), after `listing` has it. */
  readonly frame$: Observable<PipelineFrame>;
  /** What the config's window lists: the one read model (streams/listing.ts). */
  readonly listing: Listing;
  readonly state$: Observable<SessionsState>;
  readonly transitions$: Observable<Transition>;
  readonly diagnostics$: Observable<DiagnosticEvent>;
  /** The agents whose sources run. */
  readonly agents: readonly AgentKind[];
  /** The listing options in force (window, exclusions, agents, waiting timeout): the latest set. */
  readonly visibility: VisibilityOptions;
}

/**
 * A sink that is more than a subscription: an interface that starts asynchronously (a server
 * that must be ready, a terminal to take) and may end by itself.
 */
export interface RunningSink {
  readonly stop: Teardown;
  /** Resolves with an exit code when the sink ends by itself (the user quits the TUI). */
  readonly done?: Promise<number>;
}

/** What starting a sink gives back: its teardown, or a running sink, at once or once started. */
export type Started = Teardown | RunningSink | Promise<RunningSink>;

/**
 * A sink subscribes to the shared streams and owns its errors and retries. Every consumer of the
 * pipeline starts through this contract: the background sinks with the pipeline
 * (`Pipeline.start`), the interfaces just before it (`startSink`), so they answer during the
 * first discovery.
 */
export type Sink<Starts extends Started = Started> = (streams: SinkStreams, ctx: Ctx) => Starts;

const isPromise = (started: Started): started is Promise<RunningSink> => typeof (started as Promise<RunningSink>).then === 'function';

/** What a sink runs as once started: a plain teardown becomes `{ stop }`. */
type RunningOf<Starts extends Started> = Starts extends Promise<infer Running> ? Running : Starts extends RunningSink ? Starts : RunningSink;

/** Starts `sink` and waits until it runs; a failed start rejects. */
export const startSink = async <Starts extends Started>(sink: Sink<Starts>, streams: SinkStreams, ctx: Ctx): Promise<RunningOf<Starts>> => {
  const started: Started = sink(streams, ctx);
  // The cast only names what the conditional type above says each branch is.
  return (typeof started === 'function' ? { stop: started } : await started) as RunningOf<Starts>;
};

/**
 * The teardown of a sink started without waiting (the pipeline's background sinks). A start that
 * fails later is reported through `warn`, once, and its teardown does nothing.
 */
export const teardownOf = (started: Started, warn: (message: string) => void): Teardown => {
  if (typeof started === 'function') return started;
  if (!isPromise(started)) return started.stop;
  const running = started.then(
    (sink) => sink,
    (error: unknown) => {
      warn(`sink failed to start: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    },
  );
  return async () => (await running)?.stop();
};
