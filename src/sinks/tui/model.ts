import { matchesActivityFilter, type ActivityFilter } from '../../core/activity.js';
import type { AgentKind } from '../../core/agents.js';
import type { SessionsState } from '../../core/contracts.js';
import { sessionKey, type SessionKey, type SessionState, type SessionSummary } from '../../core/session.js';
import type { SessionNames } from '../../config/session-names.js';
import { selectVisible } from '../../streams/visibility.js';
import { toSummary } from '../../streams/views.js';

/** One listed session: its folded state and the summary every interface shows. */
export interface ListRow {
  readonly key: SessionKey;
  readonly state: SessionState;
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

export interface ListCounts {
  /** Sessions inside the window (before filter and search). */
  readonly total: number;
  readonly active: number;
  readonly waiting: number;
}

/** Same fields as the API's `?search=`: path, project name, the agent's title, the user's name. */
const matchesSearch = (summary: SessionSummary, needle: string): boolean =>
  [summary.cwd, summary.short_name, summary.agent_name, summary.custom_name].some((field) => field.toLowerCase().includes(needle));

/** Pure: the rows of the list at `now`, newest first, and the counts for the title bar. */
export const selectRows = (
  state: SessionsState,
  query: ListQuery,
  names: SessionNames,
  now: number,
): { rows: ListRow[]; counts: ListCounts } => {
  const visible = selectVisible(state.sessions.values(), now, {
    windowMinutes: query.windowMinutes,
    excludeCwdSubstrings: query.excludeCwdSubstrings,
    agents: query.agents,
  });
  const all = visible.map((s) => ({ key: sessionKey(s), state: s, summary: toSummary(s, { now, customNames: names }) }));
  const needle = query.search.trim().toLowerCase();
  const rows = all.filter((row) => matchesActivityFilter(query.filter, row.summary.activity) && (needle === '' || matchesSearch(row.summary, needle)));
  return {
    rows,
    counts: {
      total: all.length,
      active: all.filter((row) => row.summary.is_active).length,
      waiting: all.filter((row) => row.summary.activity === 'waiting').length,
    },
  };
};

/** The list's name of a session: the user's rename, else the project folder (issue 8). */
export const displayName = (summary: SessionSummary): string =>
  summary.custom_name || summary.short_name || summary.agent_name || summary.session_id;
