import type { AgentKind } from '../../core/agents.js';
import type { LiveIndex } from '../../search/live.js';
import type { ContentHit } from './state.js';

/** Sessions a content search may jump to, best first. */
const HITS = 50;

/**
 * `s` in the TUI: what was said, searched in the monitor's live search index (fed by the same
 * sources as the list; its first search catches up what the index lacks), as the sessions to jump
 * to, best first.
 */
export const contentSearch =
  (index: LiveIndex, agents: readonly AgentKind[]) =>
  async (query: string): Promise<ContentHit[]> =>
    (await index.search(query, { agents, limit: HITS })).map((r) => ({ key: `${r.agent}:${r.session_id}` }));
