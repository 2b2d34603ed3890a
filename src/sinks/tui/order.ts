import type { Activity } from '../../core/activity.js';
import { nextSessionOrder, SESSION_ORDER_LABEL, SESSION_ORDERS, type SessionOrder } from '../../core/session-order.js';
import type { SessionKey, SessionState, SessionSummary } from '../../core/session.js';
import { sortSessions } from '../../streams/order.js';
import { shortName } from '../../streams/views.js';

/**
 * The list's order (key `S` cycles it; `sort_order` in the config is the first): the rule every
 * session list follows (streams/order.ts), so the TUI and the dashboard on the same data list the
 * same order. A row moves when its session changes group (needs-you), never on a new record.
 */
export const SORT_MODES = SESSION_ORDERS;
export type SortMode = SessionOrder;

export const SORT_LABEL: Readonly<Record<SortMode, string>> = SESSION_ORDER_LABEL;

/** The title bar's word for the order. */
export const SORT_SHORT: Readonly<Record<SortMode, string>> = { 'needs-you': 'needs-you', recent: 'recent', started: 'started', name: 'name', cost: 'cost', project: 'project' };

export const nextSortMode = nextSessionOrder;

interface Orderable {
  readonly key: SessionKey;
  readonly state: SessionState;
  readonly activity: Activity;
  /** Read only by the orders that need the name or the cost. */
  readonly summary: SessionSummary;
}

/** `rows` in `mode`'s order (a copy). */
export const orderRows = <T extends Orderable>(rows: readonly T[], mode: SortMode): T[] =>
  sortSessions(rows, mode, (row) => ({
    id: row.state.sessionId,
    activity: row.activity,
    startedAt: row.state.createdAt,
    lastActivityAt: row.state.lastActivityAt,
    name: mode === 'name' ? row.summary.display_name : '',
    costUsd: mode === 'cost' ? row.summary.cost_usd : 0,
    project: shortName(row.state.cwd),
    cwd: row.state.cwd,
  }));
