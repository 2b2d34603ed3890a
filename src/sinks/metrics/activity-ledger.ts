import type { Activity } from '../../core/activity.js';
import type { AgentKind } from '../../core/agents.js';
import type { SessionKey, SessionState, Transition } from '../../core/session.js';

/**
 * Time spent in each activity, per agent, for `agentwatch_activity_seconds_total`.
 *
 * A session's time is counted while it is listed (inside the window, not excluded, not a
 * sub-agent) and agentwatch runs: from its first transition or the first scrape that sees it.
 * Transitions close intervals at their exact time; a scrape adds the open intervals up to now.
 * Every value only grows: an interval is never closed before the time a scrape already counted.
 */
interface OpenInterval {
  readonly agent: AgentKind;
  readonly activity: Activity;
  readonly since: number;
  /** The latest time a scrape counted this interval up to. */
  countedTo: number;
}

export interface ActivityLedger {
  /** A transition of a listed session: close its interval at `t.at`, open the next. */
  readonly transition: (t: Transition) => void;
  /**
   * Bring the open intervals in line with the sessions listed at `now` (with their current
   * activity; the others are not listed), then the seconds per `agent` + `activity`, open
   * intervals counted to `now`.
   */
  readonly totals: (
    listed: ReadonlyMap<SessionKey, ListedSession>,
    now: number,
    /** A session by key (of those no longer listed: when its window edge came, see `listedUntil`). */
    sessionOf: (key: SessionKey) => SessionState | undefined,
    /** When a listed session stops being listed by itself (its window edge), else Infinity. */
    listedUntil: (s: SessionState) => number,
  ) => ReadonlyMap<string, { readonly agent: AgentKind; readonly activity: Activity; readonly seconds: number }>;
}

/** A listed session and its activity at the scrape. */
export interface ListedSession {
  readonly session: SessionState;
  readonly activity: Activity;
}

const labelKey = (agent: AgentKind, activity: Activity): string => `${agent}\u0000${activity}`;

export const createActivityLedger = (): ActivityLedger => {
  const closedMs = new Map<string, { agent: AgentKind; activity: Activity; ms: number }>();
  const open = new Map<SessionKey, OpenInterval>();

  const close = (interval: OpenInterval, end: number): void => {
    const key = labelKey(interval.agent, interval.activity);
    const entry = closedMs.get(key) ?? { agent: interval.agent, activity: interval.activity, ms: 0 };
    entry.ms += Math.max(0, Math.max(end, interval.countedTo) - interval.since);
    closedMs.set(key, entry);
  };

  return {
    transition: (t) => {
      const key: SessionKey = `${t.agent}:${t.sessionId}`;
      const current = open.get(key);
      if (current) close(current, t.at);
      open.set(key, { agent: t.agent, activity: t.to, since: t.at, countedTo: t.at });
    },
    totals: (listed, now, sessionOf, listedUntil) => {
      for (const [key, interval] of open) {
        if (listed.has(key)) continue;
        const s = sessionOf(key);
        close(interval, s ? Math.min(now, listedUntil(s)) : now);
        open.delete(key);
      }
      for (const [key, { session, activity }] of listed) {
        const interval = open.get(key);
        if (interval && interval.activity === activity) continue;
        if (interval) close(interval, now);
        open.set(key, { agent: session.agent, activity, since: now, countedTo: now });
      }
      const out = new Map<string, { agent: AgentKind; activity: Activity; seconds: number }>();
      for (const [key, entry] of closedMs) out.set(key, { agent: entry.agent, activity: entry.activity, seconds: entry.ms / 1000 });
      for (const interval of open.values()) {
        interval.countedTo = Math.max(interval.countedTo, now);
        const key = labelKey(interval.agent, interval.activity);
        const entry = out.get(key) ?? { agent: interval.agent, activity: interval.activity, seconds: 0 };
        entry.seconds += (interval.countedTo - interval.since) / 1000;
        out.set(key, entry);
      }
      return out;
    },
  };
};
