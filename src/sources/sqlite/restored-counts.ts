import type { DiagnosticCode, SessionEvent } from '../../core/session.js';

type Counts = Partial<Record<DiagnosticCode, number>>;

/**
 * The diagnostic counts a warm start restores with its sessions (one event per code, standing for
 * the records an earlier read found), kept so that a warm start counts what a cold start counts:
 *
 * - restored from a database changed since, they are held until the first read tells the
 *   sessions it replays (a replay reports its records itself) from those it does not (theirs are
 *   released);
 * - once released, a session's first replay finds those records again, under messages the poller
 *   has not reported: up to the released counts they are the ones already counted (a cold
 *   start's poller drops them as repeats), the rest are new.
 */
export interface RestoredCounts {
  /** Holds a restored session's diagnostic events until `release`. */
  readonly hold: (sessionId: string, events: readonly SessionEvent[]) => void;
  /** Reports what is held (into `out`). */
  readonly release: (out: SessionEvent[]) => void;
  /** The session is replayed: drops what is held of it; the returned test says which of its replay's diagnostics were counted already. */
  readonly replayed: (sessionId: string) => (event: SessionEvent) => boolean;
  /** The session is gone. */
  readonly removed: (sessionId: string) => void;
  readonly clear: () => void;
}

export const createRestoredCounts = (): RestoredCounts => {
  let held = new Map<string, readonly SessionEvent[]>();
  let released = new Map<string, Counts>();
  return {
    hold: (sessionId, events) => {
      if (events.length > 0) held.set(sessionId, events);
    },
    release: (out) => {
      for (const [sessionId, events] of held) {
        const counts: Counts = {};
        for (const event of events) {
          out.push(event);
          if (event.type === 'diagnostic') counts[event.code] = (counts[event.code] ?? 0) + (event.count ?? 1);
        }
        released.set(sessionId, counts);
      }
      held = new Map();
    },
    replayed: (sessionId) => {
      held.delete(sessionId);
      const counts = released.get(sessionId);
      released.delete(sessionId);
      return (event) => {
        if (event.type !== 'diagnostic' || !counts) return false;
        const left = counts[event.code] ?? 0;
        if (left <= 0) return false;
        counts[event.code] = left - 1;
        return true;
      };
    },
    removed: (sessionId) => {
      held.delete(sessionId);
      released.delete(sessionId);
    },
    clear: () => {
      held = new Map();
      released = new Map();
    },
  };
};
