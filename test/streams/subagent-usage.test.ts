import { describe, expect, it } from 'vitest';
import { sessionKey, type SessionKey, type SessionState } from '../../src/core/session.js';
import { PersistentMap } from '../../src/streams/persistent-map.js';
import { emptySession } from '../../src/streams/empty-session.js';
import { rollUpSubagents } from '../../src/streams/subagent-usage.js';

const child = (id: string, parentId: string, input: number): SessionState => ({
  ...emptySession('claude', id),
  isSidechain: true,
  parentId,
  tokens: { input, output: 1, cacheCreation: 0, cacheRead: 0 },
});
const parent = (id: string): SessionState => emptySession('claude', id);

/** One batch: the sessions set (undefined: removed), folded over `sessions` and `children` as the reducer does. */
const fold = (
  sessions: PersistentMap<SessionKey, SessionState>,
  children: ReadonlyMap<SessionKey, ReadonlySet<SessionKey>>,
  batch: readonly (SessionState | { readonly removed: SessionKey })[],
) => {
  const changes = new Map<SessionKey, SessionState | undefined>();
  for (const item of batch) {
    if ('removed' in item) changes.set(item.removed, undefined);
    else changes.set(sessionKey(item), item);
  }
  return rollUpSubagents(sessions.withChanges(changes), children, new Set(changes.keys()));
};

describe('sub-agent usage rolled up into the parent', () => {
  it('sums many children of several parents restored in one batch, then follows children that come and go', () => {
    const batch: SessionState[] = [parent('p1'), parent('p2')];
    for (let i = 0; i < 40; i += 1) batch.push(child(`c${i}`, i % 2 === 0 ? 'p1' : 'p2', i));
    // A child whose parent is not known (yet) is indexed all the same.
    batch.push(child('orphan', 'p3', 100));
    let state = fold(PersistentMap.empty(), PersistentMap.empty(), batch);
    const usage = (id: string) => state.sessions.get(`claude:${id}`)?.subagents;
    const evens = Array.from({ length: 20 }, (_, i) => 2 * i).reduce((a, b) => a + b, 0);
    const odds = Array.from({ length: 20 }, (_, i) => 2 * i + 1).reduce((a, b) => a + b, 0);
    expect(usage('p1')).toMatchObject({ sessions: 20, tokens: { input: evens, output: 20 } });
    expect(usage('p2')).toMatchObject({ sessions: 20, tokens: { input: odds, output: 20 } });
    expect(state.parents).toEqual(new Set(['claude:p1', 'claude:p2']));
    expect(state.children.get('claude:p1')?.size).toBe(20);

    // The parent appears after its child.
    state = fold(state.sessions, state.children, [parent('p3')]);
    expect(usage('p3')).toMatchObject({ sessions: 1, tokens: { input: 100 } });

    // A child grows, another joins, one leaves, in one batch.
    state = fold(state.sessions, state.children, [child('c0', 'p1', 1_000), child('c40', 'p1', 7), { removed: 'claude:c2' }]);
    expect(usage('p1')).toMatchObject({ sessions: 20, tokens: { input: evens - 0 + 1_000 - 2 + 7 } });
    expect(state.children.get('claude:p1')?.has('claude:c2')).toBe(false);
    expect(state.children.get('claude:p1')?.has('claude:c40')).toBe(true);
    // A batch that changes nothing of theirs leaves the parents as they were.
    const before = state.sessions.get('claude:p2');
    state = fold(state.sessions, state.children, [parent('other')]);
    expect(state.sessions.get('claude:p2')).toBe(before);
    expect(state.parents.size).toBe(0);
  });
});
