/**
 * Browser notifications (opt-in, beside the server's desktop ones): a session that stays
 * `waiting` for `notify_after_sec` is announced once per episode; leaving `waiting` ends the
 * episode. The episode starts at the session's last activity (the answer it waits after). A
 * session already past the delay when the page first sees it is not announced (the page opened
 * late; the server's notifier covers the time it was closed). Pure, so the rule is unit-tested.
 */

export interface WaitState {
  /** When each waiting session's episode started. */
  readonly since: ReadonlyMap<string, number>;
  /** Waiting sessions already announced (or passed over) this episode. */
  readonly announced: ReadonlySet<string>;
}

export const NO_WAITING: WaitState = { since: new Map(), announced: new Set() };

export interface WaitingInput {
  readonly id: string;
  readonly waiting: boolean;
  /** Epoch ms of the last activity, NaN when unknown. */
  readonly lastActivity: number;
}

export const trackWaiting = (state: WaitState, sessions: Iterable<WaitingInput>, now: number, afterMs: number): { readonly state: WaitState; readonly due: readonly string[] } => {
  const since = new Map<string, number>();
  const announced = new Set<string>();
  const due: string[] = [];
  for (const session of sessions) {
    if (!session.waiting) continue;
    const known = state.since.get(session.id);
    const start = known ?? (Number.isFinite(session.lastActivity) ? Math.min(session.lastActivity, now) : now);
    since.set(session.id, start);
    if (state.announced.has(session.id)) announced.add(session.id);
    else if (now - start >= afterMs) {
      announced.add(session.id);
      // First sight of an episode already past the delay: passed over, not announced.
      if (known !== undefined) due.push(session.id);
    }
  }
  return { state: { since, announced }, due };
};
