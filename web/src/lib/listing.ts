import { matchesActivityFilter } from '../../../src/core/activity.js';
import type { ActivityFilter, SessionSummary } from './wire.js';

/** Pure rules of the card list: order, filter, window steps, keyboard movement. */

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

export const isShown = (s: SessionSummary, query: string, filter: ActivityFilter): boolean =>
  matchesActivityFilter(filter, s.activity) && matchesSearch(s, query);

/** The window +/- keys: 10-minute steps within 10..480 (a larger configured window only narrows). */
export const WINDOW_STEP = 10;
export const WINDOW_MIN = 10;
export const WINDOW_MAX = 480;
export const stepWindow = (minutes: number, direction: 1 | -1): number => {
  if (direction > 0) return minutes >= WINDOW_MAX ? minutes : Math.min(WINDOW_MAX, Math.max(WINDOW_MIN, minutes + WINDOW_STEP));
  if (minutes > WINDOW_MAX) return WINDOW_MAX;
  return Math.max(WINDOW_MIN, minutes - WINDOW_STEP);
};

/** The filter key cycles through these (the activity menu offers every value). */
export const FILTER_CYCLE: readonly ActivityFilter[] = ['', 'active', 'waiting', 'thinking', 'writing', 'running', 'idle'];
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
