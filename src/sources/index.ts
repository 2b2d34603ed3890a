import { from, switchMap } from 'rxjs';
import { AGENT_KINDS, type AgentKind } from '../core/agents.js';
import type { Source } from './contracts.js';
import { agentLoaders } from './agents.js';

/**
 * A source whose module loads when it is first subscribed: a command that runs one agent
 * (`sessions --agent claude`) loads that agent's parser, schemas and readers only (loading the
 * other eight would lengthen every start).
 */
const onDemand =
  (load: () => Promise<Source>): Source =>
  (ctx) =>
    from(load()).pipe(switchMap((source) => source(ctx)));

/**
 * Every agent source, loaded through its descriptor (agents.ts). A source is
 * `(ctx) => Observable<SessionEvent>`; the file sources also read two optional fields of
 * `SourceCtx` (src/sources/internal/options.ts):
 *
 * - `cache`: the discovery cache (`openDiscoveryCache(env, log)` from internal/cache.ts). With it a
 *   warm start emits `restore` and reads only appended bytes. Keep it current with
 *   `persistCache(state$, cache, ctx.scheduler)` (internal/persist-cache.ts), and close it on dispose.
 * - `watch: false`: scan once, emit `ready`, complete (for one-shot commands such as `sessions`).
 *
 * JSONL agents are built on `createJsonlSource(spec)` (internal/jsonl-source.ts): give it the roots
 * to scan/watch, a `classify` (which files are transcripts, and their session id) and a per-file
 * `FileParser` (internal/file-parser.ts); it handles offsets, partial and oversized lines,
 * truncation, rotation, deletion, new directories, the cache and `ready`.
 */
export const sources = Object.fromEntries(AGENT_KINDS.map((kind) => [kind, onDemand(agentLoaders[kind])])) as Readonly<Record<AgentKind, Source>>;

export type { SourceCtx } from './internal/options.js';
export { openDiscoveryCache, discoveryCachePath, type DiscoveryCache } from './internal/cache.js';
export { createPersister, persistCache, type Persister } from './internal/persist-cache.js';
