import type { Observable } from 'rxjs';
import type { Ctx } from '../contracts.js';
import type { SessionState } from '../../core/session.js';
import type { DiscoveryCache } from './cache.js';

/**
 * What the composition root may pass to a file source besides the shared `Ctx`. Both fields are
 * optional, so every source is still a plain `Source` (`(ctx: Ctx) => Observable<SessionEvent>`).
 */
export interface SourceCtx extends Ctx {
  /**
   * Warm-start data: a source restores a file's persisted state and reads only what was appended
   * since. Open it with `openDiscoveryCache(env)`; keep it fed with `persistCache(...)`.
   */
  readonly cache?: DiscoveryCache;
  /**
   * `false`: scan once, emit `ready` and complete (one-shot commands such as `sessions --json`).
   * Default `true`: keep watching after `ready` until unsubscribed.
   */
  readonly watch?: boolean;
  /**
   * A one-shot listing of a window (`watch: false`): transcripts last written before this time
   * (ms since the epoch) are neither read nor restored; their sessions cannot have been active
   * since. A session of several files is skipped only when all of them are older; files that feed
   * another session (`JsonlAgentSpec.feedsAnother`) are always read. Undefined: every file.
   */
  readonly readSince?: number;
  /**
   * A one-shot pass that wants only what changed since the cache's rows were written (the search
   * index's catch-up, whose cache holds what it indexed): a transcript the cache holds as it is
   * on disk is neither restored nor read, and its row stays. Only changed files yield sessions.
   */
  readonly changedOnly?: boolean;
  /**
   * States the cache now holds at their checkpoints (a first discovery's sessions, once persisted:
   * `SourcePipeline.releaseDetails`). A source may then drop what it keeps only to continue a
   * file, the parser of a file read up to exactly that checkpoint, and resume from the state when
   * the file grows, as after a warm start.
   */
  readonly restorable$?: Observable<readonly SessionState[]>;
}
