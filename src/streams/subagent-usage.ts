import { SUBAGENTS_ROLL_UP } from '../sources/agents.js';
import { addTokens, NO_SUBAGENTS, sameTokens, ZERO_TOKENS, type SessionKey, type SessionState, type SubagentUsage } from '../core/session.js';
import { usageCost } from './cost.js';
import { PersistentMap } from './persistent-map.js';

/**
 * Sub-agent spend rolled up into the parent session (docs/api.md, `subagents`), for the agents
 * whose descriptor says their sub-agents' sessions hold spend the parent's totals leave out
 * (Claude's sub-agent transcripts, Codex's sub-agent rollouts): hidden from the list, it would be
 * shown nowhere else.
 */
const parentKeyOf = (s: SessionState): SessionKey | undefined =>
  s.isSidechain && s.parentId !== '' && SUBAGENTS_ROLL_UP.has(s.agent) ? `${s.agent}:${s.parentId}` : undefined;

/** The parent's sub-agent usage: the sum of its children's own usage (pure). */
const sumSubagents = (children: Iterable<SessionState>): SubagentUsage => {
  let sessions = 0;
  let tokens = ZERO_TOKENS;
  let costUsd = 0;
  for (const child of children) {
    sessions += 1;
    tokens = addTokens(tokens, child.tokens);
    costUsd += usageCost(child);
  }
  return sessions === 0 ? NO_SUBAGENTS : { sessions, tokens, costUsd };
};

const sameUsage = (a: SubagentUsage, b: SubagentUsage): boolean => a.sessions === b.sessions && a.costUsd === b.costUsd && sameTokens(a.tokens, b.tokens);

/**
 * After a batch: keep the parent -> children index current for the `changed` sessions, and give
 * every parent whose children (or itself) changed its recomputed `subagents`. Both maps are
 * persistent (updated by path copying). Returns the sessions and the index to publish, and the
 * parents whose `subagents` it replaced (they changed too).
 */
export const rollUpSubagents = (
  given: PersistentMap<SessionKey, SessionState>,
  children: ReadonlyMap<SessionKey, ReadonlySet<SessionKey>>,
  changed: ReadonlySet<SessionKey>,
): {
  readonly sessions: PersistentMap<SessionKey, SessionState>;
  readonly children: ReadonlyMap<SessionKey, ReadonlySet<SessionKey>>;
  readonly parents: ReadonlySet<SessionKey>;
} => {
  let sessions = given;
  let index: PersistentMap<SessionKey, ReadonlySet<SessionKey>> | undefined;
  const copyIndex = (): PersistentMap<SessionKey, ReadonlySet<SessionKey>> =>
    children instanceof PersistentMap ? (children as PersistentMap<SessionKey, ReadonlySet<SessionKey>>) : PersistentMap.from(children);
  const parents = new Set<SessionKey>();
  // Children new to their parent's list, joined once per parent after the loop (a warm start
  // restores hundreds of sub-agents in one batch: one copy of each list, not one per child).
  const joined = new Map<SessionKey, SessionKey[]>();
  for (const key of changed) {
    const session = sessions.get(key);
    const parent = session ? parentKeyOf(session) : undefined;
    if (parent !== undefined) {
      parents.add(parent);
      if (!children.get(parent)?.has(key)) {
        const list = joined.get(parent);
        if (list) list.push(key);
        else joined.set(parent, [key]);
      }
    } else if (children.has(key)) {
      // The parent itself changed (or appeared after its children): give it their usage.
      parents.add(key);
    }
    if (!session) {
      // A removed child leaves every parent's list.
      for (const [p, kids] of index ?? children) {
        if (!kids.has(key)) continue;
        index ??= copyIndex();
        index = index.set(p, new Set([...kids].filter((k) => k !== key)));
        parents.add(p);
      }
    }
  }
  for (const [parent, keys] of joined) {
    index ??= copyIndex();
    index = index.set(parent, new Set([...(index.get(parent) ?? []), ...keys]));
  }
  const current = index ?? children;
  const updated = new Set<SessionKey>();
  for (const parentKey of parents) {
    const parent = sessions.get(parentKey);
    if (!parent) continue;
    const kids = [...(current.get(parentKey) ?? [])].flatMap((k) => {
      const child = sessions.get(k);
      return child ? [child] : [];
    });
    const usage = sumSubagents(kids);
    if (sameUsage(usage, parent.subagents)) continue;
    sessions = sessions.set(parentKey, { ...parent, subagents: usage });
    updated.add(parentKey);
  }
  return { sessions, children: current, parents: updated };
};
