import type { Observable } from 'rxjs';
import type { SessionsState, Teardown } from '../core/contracts.js';
import type { DiagnosticEvent, Transition } from '../core/session.js';
import type { Ctx } from './contracts.js';
import type { PipelineFrame } from './frames.js';
import type { Listing } from './listing.js';

// Apart from the source contract (contracts.ts): sources must not reach the read model, even by type.

/** The pipeline's shared streams, as every sink gets them. */
interface SinkStreams {
  /** Every frame of the fold (state, activities, what it touched), after `listing` has it. */
  readonly frame$: Observable<PipelineFrame>;
  /** What the config's window lists: the one read model (streams/listing.ts). */
  readonly listing: Listing;
  readonly state$: Observable<SessionsState>;
  readonly transitions$: Observable<Transition>;
  readonly diagnostics$: Observable<DiagnosticEvent>;
}

/** A sink subscribes to the shared streams and owns its errors and retries. */
export type Sink = (streams: SinkStreams, ctx: Ctx) => Teardown;
