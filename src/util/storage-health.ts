import { describeFault, type StorageFault } from './storage-fault.js';

/** The stores that keep running on less when their disk fails them. */
export const STORAGE_NAMES = ['webhook queue', 'search index'] as const;
export type StorageName = (typeof STORAGE_NAMES)[number];

export interface DegradedStorage {
  readonly store: StorageName;
  readonly file: string;
  readonly fault: StorageFault;
  /** What the monitor does without it, in a few words. */
  readonly meanwhile: string;
  /** Epoch ms. */
  readonly since: number;
}

// NOTE: one per process, like the disk it describes: the stores report here and the interfaces
// (`/api/stats`, GET /metrics) read it, without a path between them.
const degraded = new Map<StorageName, DegradedStorage>();

/** A store runs degraded; true when this is news (the caller says it once). */
export const markDegraded = (entry: DegradedStorage): boolean => {
  const known = degraded.get(entry.store);
  degraded.set(entry.store, known?.fault === entry.fault ? known : entry);
  return known === undefined;
};

/** A store works on its file again; true when it had been degraded. */
export const markRecovered = (store: StorageName): boolean => degraded.delete(store);

/** The stores running degraded now, by name. */
export const degradedStorage = (): DegradedStorage[] => [...degraded.values()].sort((a, b) => a.store.localeCompare(b.store));

/** One line for a user: what is degraded, why, and what happens meanwhile. */
export const describeDegraded = (entry: DegradedStorage): string =>
  `${entry.store} ${entry.file} cannot be written (${describeFault(entry.fault)}); ${entry.meanwhile} until it can`;
