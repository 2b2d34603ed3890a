import type { AgentKind } from '../core/agents.js';
import type { Source } from '../core/contracts.js';
import { amp } from './amp/index.js';
import { claude } from './claude/index.js';
import { codex } from './codex/index.js';
import { cursor } from './cursor/index.js';
import { grok } from './grok/index.js';
import { kilo } from './kilo/index.js';
import { kimi } from './kimi/index.js';
import { opencode } from './opencode/index.js';
import { pi } from './pi/index.js';

/**
 * Every agent source, one line per agent. A source is `(ctx) => Observable<SessionEvent>`; the
 * file sources also read two optional fields of `SourceCtx` (src/sources/internal/options.ts):
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
export const sources = {
  amp,
  claude,
  codex,
  cursor,
  grok,
  kilo,
  kimi,
  opencode,
  pi,
} satisfies Record<AgentKind, Source>;

export type { SourceCtx } from './internal/options.js';
export { openDiscoveryCache, discoveryCachePath, type DiscoveryCache } from './internal/cache.js';
export { persistCache } from './internal/persist-cache.js';
