import { matchesActivityFilter, type ActivityFilter } from '../../core/activity.js';
import type { SessionsState } from '../../core/contracts.js';
import type { SessionState } from '../../core/session.js';
import type { ListedSession, ListingCounts } from '../../streams/listing.js';
import { shortName } from '../../streams/views.js';
import { orderRows, type SortMode } from './order.js';

/**
 * One listed session: its folded state, its activity, and the summary every interface shows (built
 * on first read: with thousands listed only the rows on screen and the selected one need it).
 */
export type ListRow = Pick<ListedSession, 'key' | 'state' | 'activity' | 'summary'>;

/** What narrows the list besides the listing's window and the config's rules: the view's filter and search. */
export interface ListQuery {
  readonly filter: ActivityFilter;
  readonly search: string;
}

/** The TUI's listing as read for one frame (streams/listing.ts, with the view's window). */
export interface ListedRead {
  /** The pipeline's latest state (readiness, diagnostics, what lies outside the window). */
  readonly state: SessionsState;
  /** Listed sessions, newest first. */
  readonly sessions: readonly ListedSession[];
  readonly counts: ListingCounts;
}

export type ListCounts = ListingCounts;

/** Same fields as the API's `?search=`: path, project name, the agent's title, the user's name. */
const matchesSearch = (row: ListedSession, needle: string): boolean =>
  [row.state.cwd, shortName(row.state.cwd), row.state.agentName, row.customName].some((field) => field.toLowerCase().includes(needle));

/**
 * Pure: the rows of the list in the view's order (the TUI starts from `sort_order`; without one,
 * newest activity first) and the counts for the title bar. The order is decided over every
 * session in the window, before filter and search, so narrowing the list never reorders it.
 */
export const selectRows = (read: ListedRead, query: ListQuery, order: SortMode = 'recent'): { rows: ListRow[]; counts: ListCounts } => {
  const needle = query.search.trim().toLowerCase();
  const rows = orderRows(read.sessions, order).filter((row) => matchesActivityFilter(query.filter, row.activity) && (needle === '' || matchesSearch(row, needle)));
  return { rows, counts: read.counts };
};

// One naming rule for the TUI and the dashboard (core/session-name.ts).
export { displayNameOf,  } from '../../core/session-name.js';

/** Tokens counted for a session, its sub-agents included (the cost column shows a cost only with tokens). */
export const totalTokens = (s: Pick<SessionState, 'tokens' | 'subagents'>): number =>
  s.tokens.input + s.tokens.output + s.tokens.cacheCreation + s.tokens.cacheRead + s.subagents.tokens.input + s.subagents.tokens.output + s.subagents.tokens.cacheCreation + s.subagents.tokens.cacheRead;

