import { isActiveActivity, matchesActivityFilter, type Activity, type ActivityFilter } from '../../core/activity.js';
import type { AgentKind } from '../../core/agents.js';
import type { SessionsState } from '../../core/contracts.js';
import { sessionKey, type SessionKey, type SessionState, type SessionSummary } from '../../core/session.js';
import type { SessionNames } from '../../config/session-names.js';
import { selectVisible } from '../../streams/visibility.js';
import { deriveActivity } from '../../streams/activity.js';
import { shortName, summaryWith } from '../../streams/views.js';
import { NO_MEMORY, orderRows, type OrderMemory, type SortMode } from './order.js';

/**
 * One listed session: its folded state, its activity now, and the summary every interface shows.
 * `summary` is computed on first read: with thousands of sessions listed only the few rows on
 * screen (and the selected one) ever need it.
 */
export interface ListRow {
  readonly key: SessionKey;
  readonly state: SessionState;
  readonly activity: Activity;
  readonly summary: SessionSummary;
}

/** What narrows the list, besides time: the view's window, filter and search, the config's rules. */
export interface ListQuery {
  readonly windowMinutes: number;
  readonly filter: ActivityFilter;
  readonly search: string;
  readonly excludeCwdSubstrings: readonly string[];
  readonly agents: ReadonlySet<AgentKind>;
}

/** A class, not an object literal with a closure: thousands are made per frame, cheaply. */
class LazyRow implements ListRow {
  #summary: SessionSummary | undefined;
  readonly activity: Activity;
  constructor(
    readonly state: SessionState,
    private readonly names: SessionNames,
    private readonly now: number,
    activities: ReadonlyMap<SessionKey, Activity> | undefined,
  ) {
    this.activity = activities?.get(sessionKey(state)) ?? deriveActivity(state, now);
  }
  get key(): SessionKey {
    return sessionKey(this.state);
  }
  get summary(): SessionSummary {
    // With the row's activity (the fold's, under the configured waiting timeout), not one derived again.
    this.#summary ??= summaryWith(this.state, { customNames: this.names }, this.activity);
    return this.#summary;
  }
}

export interface ListCounts {
  /** Sessions inside the window (before filter and search). */
  readonly total: number;
  readonly active: number;
  readonly waiting: number;
}

/** Same fields as the API's `?search=`: path, project name, the agent's title, the user's name. */
const matchesSearch = (s: SessionState, names: SessionNames, needle: string): boolean =>
  [s.cwd, shortName(s.cwd), s.agentName, names[s.sessionId] ?? ''].some((field) => field.toLowerCase().includes(needle));

/** How the list is ordered: the sort key and where rows were in the previous frame (see order.ts). */
export interface ListOrder {
  readonly mode: SortMode;
  readonly memory: OrderMemory;
}

/**
 * Pure: the rows of the list at `now` in the sort order (newest first by default), the counts
 * for the title bar, and the order's memory for the next frame. The order is decided over every
 * session in the window, before filter and search, so narrowing the list never reorders it.
 */
export const selectRows = (
  state: SessionsState,
  query: ListQuery,
  names: SessionNames,
  now: number,
  order: ListOrder = { mode: 'recent', memory: NO_MEMORY },
  /** The activities the fold derived for the latest frame (before the first discovery completes: none). */
  activities?: ReadonlyMap<SessionKey, Activity>,
): { rows: ListRow[]; counts: ListCounts; memory: OrderMemory } => {
  const visible = selectVisible(state.sessions.values(), now, {
    windowMinutes: query.windowMinutes,
    excludeCwdSubstrings: query.excludeCwdSubstrings,
    agents: query.agents,
  });
  const ordered = orderRows(
    visible.map((s) => new LazyRow(s, names, now, activities)),
    order.mode,
    order.memory,
    state.ready,
  );
  const all: ListRow[] = ordered.rows;
  const needle = query.search.trim().toLowerCase();
  const rows = all.filter((row) => matchesActivityFilter(query.filter, row.activity) && (needle === '' || matchesSearch(row.state, names, needle)));
  return {
    rows,
    memory: ordered.memory,
    counts: {
      total: all.length,
      active: all.filter((row) => isActiveActivity(row.activity)).length,
      waiting: all.filter((row) => row.activity === 'waiting').length,
    },
  };
};

// One naming rule for the TUI and the dashboard (core/session-name.ts).
export { displayNameOf, type NameSource } from '../../core/session-name.js';

/** Tokens counted for a session, its sub-agents included (the cost column shows a cost only with tokens). */
export const totalTokens = (s: Pick<SessionState, 'tokens' | 'subagents'>): number =>
  s.tokens.input + s.tokens.output + s.tokens.cacheCreation + s.tokens.cacheRead + s.subagents.tokens.input + s.subagents.tokens.output + s.subagents.tokens.cacheCreation + s.subagents.tokens.cacheRead;

