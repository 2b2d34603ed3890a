import { compactAge } from './age.js';
import { timeOf } from './time.js';

/**
 * The displayed activity of a session. The order is the one users read in filters and docs;
 * it is also the set webhook `events` filters accept.
 */
export const ACTIVITIES = [
  'idle',
  'waiting',
  'thinking',
  'compacting',
  'reading',
  'writing',
  'running',
  'searching',
  'browsing',
  'spawning',
] as const;

export type Activity = (typeof ACTIVITIES)[number];

/** "Active" is everything the agent does on its own: not idle and not waiting for the user. */
export const isActiveActivity = (activity: Activity): boolean => activity !== 'idle' && activity !== 'waiting';

/** Values accepted by `default_filter` and the TUI/API `filter`: "" (all), "active", or one activity. */
export const ACTIVITY_FILTERS = ['', 'active', ...ACTIVITIES] as const;
export type ActivityFilter = (typeof ACTIVITY_FILTERS)[number];

export const matchesActivityFilter = (filter: ActivityFilter, activity: Activity): boolean =>
  filter === '' ? true : filter === 'active' ? isActiveActivity(activity) : filter === activity;

/** The activity as the interfaces write it: a waiting session says for how long ("waiting 14m"). */
export const activityText = (s: { readonly activity: Activity; readonly waiting_since: string }, now: number): string => {
  const since = s.activity === 'waiting' ? timeOf(s.waiting_since) : 0;
  return since > 0 ? `waiting ${compactAge(since, now)}` : s.activity;
};
