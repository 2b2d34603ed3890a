import type { AgentKind } from '../../core/agents.js';
import type { SessionKey, SessionState, TokenCounts } from '../../core/session.js';
import { usageCost } from '../../streams/cost.js';

/**
 * Tokens and estimated cost for `agentwatch_tokens_total` / `agentwatch_cost_usd_total`, fed by
 * NEW usage only: what the first discovery found (history, the warm-start cache) is the
 * baseline and counts nothing, so a restart never counts a session's past usage again. After
 * that, every growth of a session's totals is added under its agent and current model. A
 * session that appears after the first discovery starts from zero (all of it is new). A total
 * that shrinks (a transcript rewritten from scratch) moves the baseline without counting.
 */
type TokenKind = 'input' | 'output' | 'cache_read' | 'cache_creation';

const KINDS: readonly (readonly [TokenKind, 'input' | 'output' | 'cacheRead' | 'cacheCreation'])[] = [
  ['input', 'input'],
  ['output', 'output'],
  ['cache_read', 'cacheRead'],
  ['cache_creation', 'cacheCreation'],
];

/**
 * What was counted of a session: its token totals (the object itself: a fold copies it only when
 * usage changes) and its cost. Not the state: that would keep every session's detail alive
 * (recent messages and tools) after the fold let go of it.
 */
interface Seen {
  readonly tokens: TokenCounts;
  /** What the cost comes from besides the tokens. */
  readonly model: string;
  readonly recordedCostUsd: number;
  readonly cost: number;
}

const seenOf = (s: SessionState): Seen => ({ tokens: s.tokens, model: s.model, recordedCostUsd: s.recordedCostUsd, cost: costOf(s) });

interface UsageTotals {
  readonly tokens: ReadonlyMap<string, { readonly agent: AgentKind; readonly model: string; readonly kind: TokenKind; readonly value: number }>;
  readonly cost: ReadonlyMap<string, { readonly agent: AgentKind; readonly model: string; readonly value: number }>;
}

export interface UsageLedger {
  /** The state at the end of the first discovery: everything in it is history. */
  readonly baseline: (sessions: ReadonlyMap<SessionKey, SessionState>, counts: (s: SessionState) => boolean) => void;
  /** A later state: add what grew since the last observation. */
  readonly observe: (sessions: ReadonlyMap<SessionKey, SessionState>, counts: (s: SessionState) => boolean) => void;
  /**
   * `observe` for the sessions `keys` name only (those a frame folded events into): what a
   * running monitor does on every change, at a cost that follows the change, not the sessions.
   */
  readonly observeKeys: (sessions: ReadonlyMap<SessionKey, SessionState>, keys: Iterable<SessionKey>, counts: (s: SessionState) => boolean) => void;
  readonly totals: () => UsageTotals;
}

const modelLabel = (s: SessionState): string => (s.model === '' ? 'unknown' : s.model);
const costOf = (s: SessionState): number => usageCost(s);

export const createUsageLedger = (): UsageLedger => {
  const seen = new Map<SessionKey, Seen>();
  const tokens = new Map<string, { agent: AgentKind; model: string; kind: TokenKind; value: number }>();
  const cost = new Map<string, { agent: AgentKind; model: string; value: number }>();
  let baselined = false;

  const add = (s: SessionState, previous: Seen | undefined): void => {
    const before = previous?.tokens;
    const deltas = KINDS.map(([kind, field]) => [kind, s.tokens[field] - (before?.[field] ?? 0)] as const);
    // A shrinking total is a re-read from scratch, not negative usage: move the baseline only.
    if (deltas.some(([, delta]) => delta < 0)) return;
    const model = modelLabel(s);
    for (const [kind, delta] of deltas) {
      if (delta === 0) continue;
      const key = `${s.agent}\u0000${model}\u0000${kind}`;
      const entry = tokens.get(key) ?? { agent: s.agent, model, kind, value: 0 };
      entry.value += delta;
      tokens.set(key, entry);
    }
    const costDelta = costOf(s) - (previous?.cost ?? 0);
    if (costDelta > 0) {
      const key = `${s.agent}\u0000${model}`;
      const entry = cost.get(key) ?? { agent: s.agent, model, value: 0 };
      entry.value += costDelta;
      cost.set(key, entry);
    }
  };

  const observeOne = (key: SessionKey, s: SessionState, counts: (s: SessionState) => boolean): void => {
    const previous = seen.get(key);
    // Folded states are immutable: the same token object, model and recorded cost mean no usage changed.
    if (!counts(s) || (previous?.tokens === s.tokens && previous.model === s.model && previous.recordedCostUsd === s.recordedCostUsd)) return;
    add(s, previous);
    seen.set(key, seenOf(s));
  };

  return {
    baseline: (sessions, counts) => {
      if (baselined) return;
      baselined = true;
      for (const [key, s] of sessions) if (counts(s)) seen.set(key, seenOf(s));
    },
    observe: (sessions, counts) => {
      if (!baselined) return;
      for (const [key, s] of sessions) observeOne(key, s, counts);
      for (const key of seen.keys()) if (!sessions.has(key)) seen.delete(key);
    },
    observeKeys: (sessions, keys, counts) => {
      if (!baselined) return;
      for (const key of keys) {
        const s = sessions.get(key);
        if (s) observeOne(key, s, counts);
        else seen.delete(key);
      }
    },
    totals: () => ({ tokens, cost }),
  };
};
