import type { Activity } from '../../core/activity.js';
import { isActiveActivity } from '../../core/activity.js';
import type { SessionKey, SessionState } from '../../core/session.js';
import { shortName } from '../../streams/views.js';

/**
 * The list's order (key `S` cycles it). Sorting by the raw last-activity time reshuffles working
 * sessions every second (each new record puts its session on top), so the selected row and the
 * rows under the eye jump. Here a row moves only when something real changed: it started working,
 * started waiting, went idle, or (project order) nothing moves at all. Pure: the previous order is
 * passed in and the next one handed back.
 */
export const SORT_MODES = ['recent', 'waiting', 'project'] as const;
export type SortMode = (typeof SORT_MODES)[number];

export const SORT_LABEL: Readonly<Record<SortMode, string>> = {
  recent: 'recent activity',
  waiting: 'waiting first',
  project: 'project',
};

/** The title bar's word for the order. */
export const SORT_SHORT: Readonly<Record<SortMode, string>> = { recent: 'recent', waiting: 'waiting', project: 'project' };

export const nextSortMode = (mode: SortMode): SortMode => SORT_MODES[(SORT_MODES.indexOf(mode) + 1) % SORT_MODES.length] ?? 'recent';

/** Where each listed session was in the previous order, and in which group. */
export type OrderMemory = ReadonlyMap<SessionKey, { readonly index: number; readonly group: string }>;

export const NO_MEMORY: OrderMemory = new Map();

interface Ranked<T> {
  readonly item: T;
  readonly key: SessionKey;
  /** Rows of one group are together; groups compare as strings. */
  readonly group: string;
  /**
   * Sticky groups keep the previous relative order of their members (working sessions: every
   * record would otherwise reorder them); newcomers to the group come first, newest first.
   */
  readonly sticky: boolean;
  readonly time: number;
  readonly previous: number;
}

interface Orderable {
  readonly key: SessionKey;
  readonly state: SessionState;
  readonly activity: Activity;
}

/**
 * Group of a row: a string so "waiting, then working, then idle" and "by project" compare alike
 * (prefixed by the mode, so a session is a newcomer everywhere after the mode changes).
 * Times inside a non-sticky group do not move while the session stays in it (an idle or waiting
 * session writes nothing), so those groups are stable with a plain newest-first order.
 */
const rank = (row: Orderable, mode: SortMode): { group: string; sticky: boolean; time: number } => {
  const { activity, state } = row;
  switch (mode) {
    case 'recent':
      return activity === 'idle' ? { group: 'r1', sticky: false, time: state.lastActivityAt } : { group: 'r0', sticky: true, time: state.lastActivityAt };
    case 'waiting':
      if (activity === 'waiting') return { group: 'w0', sticky: false, time: state.lastActivityAt };
      return isActiveActivity(activity) ? { group: 'w1', sticky: true, time: state.lastActivityAt } : { group: 'w2', sticky: false, time: state.lastActivityAt };
    case 'project':
      // Project name, then the full path (two checkouts of one name), then the start time.
      return { group: `p${shortName(state.cwd).toLowerCase()}\u0000${state.cwd}`, sticky: false, time: state.createdAt || state.lastActivityAt };
  }
};

const byKey = (a: SessionKey, b: SessionKey): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `rows` in `mode`'s order, and the memory for the next call. With `sticky` false (before the
 * first discovery finished, when sessions still arrive in file order) every group is plain
 * newest first.
 */
export const orderRows = <T extends Orderable>(
  rows: readonly T[],
  mode: SortMode,
  memory: OrderMemory,
  sticky = true,
): { rows: T[]; memory: OrderMemory } => {
  const ranked: Ranked<T>[] = rows.map((row) => {
    const r = rank(row, mode);
    const before = memory.get(row.key);
    const kept = sticky && r.sticky && before !== undefined && before.group === r.group;
    return { item: row, key: row.key, group: r.group, sticky: r.sticky, time: r.time, previous: kept ? before.index : -1 };
  });
  ranked.sort((a, b) => {
    if (a.group !== b.group) return a.group < b.group ? -1 : 1;
    // Newcomers (previous -1) before members that keep their places.
    if (a.previous !== b.previous && (a.previous === -1 || b.previous === -1)) return a.previous === -1 ? -1 : 1;
    if (a.previous !== -1) return a.previous - b.previous;
    return b.time - a.time || byKey(a.key, b.key);
  });
  const next = new Map<SessionKey, { index: number; group: string }>();
  ranked.forEach((r, index) => next.set(r.key, { index, group: r.group }));
  return { rows: ranked.map((r) => r.item), memory: next };
};
