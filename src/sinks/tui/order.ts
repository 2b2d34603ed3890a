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

interface Orderable {
  readonly key: SessionKey;
  readonly state: SessionState;
  readonly activity: Activity;
}

/** Working (sticky) and the other groups, in display order, for the time-based orders. */
const groupIndex = (activity: Activity, mode: 'recent' | 'waiting'): number => {
  if (mode === 'recent') return activity === 'idle' ? 1 : 0;
  if (activity === 'waiting') return 0;
  return isActiveActivity(activity) ? 1 : 2;
};

/** The group whose members keep their places: sessions that work (and, in `recent`, wait). */
const STICKY_GROUP = { recent: 0, waiting: 1 } as const;

const byKey = (a: SessionKey, b: SessionKey): number => (a < b ? -1 : a > b ? 1 : 0);

/** By project folder (then the full path: two checkouts of one name), then newest started first. */
const projectOrder = <T extends Orderable>(rows: readonly T[]): T[] =>
  rows
    .map((row) => ({ row, project: shortName(row.state.cwd).toLowerCase(), started: row.state.createdAt || row.state.lastActivityAt }))
    .sort(
      (a, b) =>
        (a.project < b.project ? -1 : a.project > b.project ? 1 : 0) ||
        (a.row.state.cwd < b.row.state.cwd ? -1 : a.row.state.cwd > b.row.state.cwd ? 1 : 0) ||
        b.started - a.started ||
        byKey(a.row.key, b.row.key),
    )
    .map(({ row }) => row);

/**
 * `rows` (newest first, as `selectVisible` lists them: `compareNewestFirst`) in `mode`'s order,
 * and the memory for the next call. With `sticky` false (before the
 * first discovery finished, when sessions still arrive in file order) every group is plain
 * newest first.
 *
 * Linear for the time-based orders (this runs every frame over every session in the window):
 * the rows are partitioned newest first into their groups, and only the working group's
 * members that keep their places are sorted, by their previous position. The memory holds only
 * those members; the other groups never need it.
 */
export const orderRows = <T extends Orderable>(
  rows: readonly T[],
  mode: SortMode,
  memory: OrderMemory,
  sticky = true,
): { rows: T[]; memory: OrderMemory } => {
  if (mode === 'project') return { rows: projectOrder(rows), memory: NO_MEMORY };
  const stickyGroup = STICKY_GROUP[mode];
  const groupName = `${mode}:${stickyGroup}`;
  const groups: T[][] = mode === 'recent' ? [[], []] : [[], [], []];
  const kept: { readonly row: T; readonly index: number }[] = [];
  for (const row of rows) {
    const group = groupIndex(row.activity, mode);
    const before = group === stickyGroup && sticky ? memory.get(row.key) : undefined;
    // Newcomers to the working group come first (newest first); members keep their places.
    if (before !== undefined && before.group === groupName) kept.push({ row, index: before.index });
    else groups[group]?.push(row);
  }
  kept.sort((a, b) => a.index - b.index);
  const working = groups[stickyGroup] ?? [];
  for (const { row } of kept) working.push(row);
  const ordered = ([] as T[]).concat(...groups);
  const next = new Map<SessionKey, { index: number; group: string }>();
  const offset = groups.slice(0, stickyGroup).reduce((sum, g) => sum + g.length, 0);
  working.forEach((row, i) => next.set(row.key, { index: offset + i, group: groupName }));
  return { rows: ordered, memory: next };
};
