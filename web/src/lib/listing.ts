import { matchesActivityFilter } from '../../../src/core/activity.js';
import { timeOf } from '../../../src/core/time.js';
import type { OrderFacts } from '../../../src/streams/order.js';
import type { ActivityFilter, SessionSummary } from './wire.js';

/** Pure rules of the card list: order, filter, window steps, keyboard movement. */

/** What the one order rule (src/streams/order.ts, as the TUI uses it) reads of a summary. */
export const orderFacts = (s: SessionSummary): OrderFacts => ({
  id: s.session_id,
  activity: s.activity,
  startedAt: timeOf(s.started_at),
  lastActivityAt: timeOf(s.last_activity),
  name: s.display_name,
  costUsd: s.cost_usd,
  project: s.short_name,
  cwd: s.cwd,
});

/** Newest activity first (as the API lists), then by id so equal times keep a stable order. */
export const newestFirst = (a: SessionSummary, b: SessionSummary): number => {
  if (a.last_activity !== b.last_activity) return a.last_activity < b.last_activity ? 1 : -1;
  return a.session_id < b.session_id ? -1 : a.session_id > b.session_id ? 1 : 0;
};

/** The search box matches names and paths, case-insensitively, every word somewhere. */
export const matchesSearch = (s: SessionSummary, query: string): boolean => {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = `${s.custom_name}\n${s.agent_name}\n${s.short_name}\n${s.cwd}\n${s.agent}\n${s.git_branch}\n${s.session_id}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
};

export const NOTHING_FOUND: ReadonlySet<string> = new Set();

/**
 * A card is shown when its activity passes the filter and the search box matches its name or path,
 * or what was said in it (`found`: the sessions `GET /api/search` answered for the same query).
 */
export const isShown = (s: SessionSummary, query: string, filter: ActivityFilter, found: ReadonlySet<string> = NOTHING_FOUND): boolean =>
  matchesActivityFilter(filter, s.activity) && (matchesSearch(s, query) || found.has(s.session_id));

/** How the window +/- keys step: the server's stepper for `window_minutes` (GET /api/config `bounds`). */
export interface Stepper {
  readonly min: number;
  readonly max: number;
  readonly step: number;
}

/**
 * The window +/- keys: `step` at a time within `min..max` (a larger configured window only
 * narrows). Before the config is read there is no stepper, and the window stays as it is.
 */
export const stepWindow = (minutes: number, direction: 1 | -1, stepper: Stepper | undefined): number => {
  if (stepper === undefined) return minutes;
  const { min, max, step } = stepper;
  if (direction > 0) return minutes >= max ? minutes : Math.min(max, Math.max(min, minutes + step));
  if (minutes > max) return max;
  return Math.max(min, minutes - step);
};

/** The filter key cycles through these (the activity menu offers every value). */
const FILTER_CYCLE: readonly ActivityFilter[] = ['', 'active', 'waiting', 'thinking', 'writing', 'running', 'idle'];
export const nextFilter = (current: ActivityFilter): ActivityFilter => {
  const index = FILTER_CYCLE.indexOf(current);
  return FILTER_CYCLE[(index + 1) % FILTER_CYCLE.length] ?? '';
};

/** j/k: the id after moving `delta` from `current` among `ids` (the first one when nothing is selected). */
export const moveSelection = (ids: readonly string[], current: string | undefined, delta: number): string | undefined => {
  if (ids.length === 0) return undefined;
  const index = current === undefined ? -1 : ids.indexOf(current);
  if (index === -1) return delta >= 0 ? ids[0] : ids[ids.length - 1];
  return ids[Math.min(ids.length - 1, Math.max(0, index + delta))];
};

/** Sessions waiting for the user: what the title and favicon count. */
export const waitingCount = (sessions: Iterable<SessionSummary>): number => {
  let count = 0;
  for (const s of sessions) if (s.activity === 'waiting') count += 1;
  return count;
};
