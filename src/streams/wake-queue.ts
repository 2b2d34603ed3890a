import type { SessionKey } from '../core/session.js';

/**
 * The instants at which sessions are due to be re-derived, earliest first: an immutable leftist
 * heap (push and pop in O(log n), every older queue stays valid), so each frame of the pure fold
 * can hand the next one its own queue. Entries are never updated in place: a session whose
 * deadline moved gets a new entry, and the old one is skipped when it comes up (the caller checks
 * it against the session's current deadline).
 */
export interface WakeQueue {
  readonly at: number;
  readonly key: SessionKey;
  readonly rank: number;
  readonly left: WakeQueue | undefined;
  readonly right: WakeQueue | undefined;
}

const rankOf = (q: WakeQueue | undefined): number => q?.rank ?? 0;

const merge = (a: WakeQueue | undefined, b: WakeQueue | undefined): WakeQueue | undefined => {
  if (!a) return b;
  if (!b) return a;
  if (b.at < a.at) [a, b] = [b, a];
  const merged = merge(a.right, b);
  const [left, right] = rankOf(a.left) >= rankOf(merged) ? [a.left, merged] : [merged, a.left];
  return { at: a.at, key: a.key, rank: rankOf(right) + 1, left, right };
};

export const pushWake = (queue: WakeQueue | undefined, at: number, key: SessionKey): WakeQueue =>
  merge(queue, { at, key, rank: 1, left: undefined, right: undefined }) as WakeQueue;

/** The queue without its earliest entry. */
export const popWake = (queue: WakeQueue): WakeQueue | undefined => merge(queue.left, queue.right);

/**
 * A queue of every entry of `entries` at once (the frame that derives every session): sorted, an
 * ascending chain is already a leftist heap (each node's left child the next entry, no right
 * child), so building it is a sort and one node per entry. Pushing one entry at a time merged
 * down the right spine and copied about log2(n) nodes per push: 90,000 objects for 7,000 sessions.
 * Pops and later pushes work on it as on any other queue. Ties keep the order of `entries`.
 */
export const wakeQueueOf = (entries: readonly { readonly at: number; readonly key: SessionKey }[]): WakeQueue | undefined => {
  const sorted = [...entries].sort((a, b) => a.at - b.at);
  let queue: WakeQueue | undefined;
  for (let i = sorted.length - 1; i >= 0; i -= 1) {
    const { at, key } = sorted[i] as { at: number; key: SessionKey };
    queue = { at, key, rank: 1, left: queue, right: undefined };
  }
  return queue;
};
