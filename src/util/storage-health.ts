import type { DegradedStore } from '../core/wire.js';
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
const listeners = new Set<() => void>();
let version = 0;

const changed = (): void => {
  version += 1;
  for (const listener of listeners) listener();
};

/** A store runs degraded; true when this is news (the caller says it once). */
export const markDegraded = (entry: DegradedStorage): boolean => {
  const known = degraded.get(entry.store);
  const next = known?.fault === entry.fault ? known : entry;
  degraded.set(entry.store, next);
  if (next !== known) changed();
  return known === undefined;
};

/** A store works on its file again; true when it had been degraded. */
export const markRecovered = (store: StorageName): boolean => {
  const was = degraded.delete(store);
  if (was) changed();
  return was;
};

/** Counts every change of what is degraded: a snapshot built at another count is out of date. */
export const storageVersion = (): number => version;

/** Calls `listener` after every change of what is degraded; returns the way to stop. */
export const onStorageChange = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** The stores running degraded now, by name. */
export const degradedStorage = (): DegradedStorage[] => [...degraded.values()].sort((a, b) => a.store.localeCompare(b.store));

/** One line for a user: what is degraded, why, and what happens meanwhile. */
export const describeDegraded = (entry: DegradedStorage): string =>
  `${entry.store} ${entry.file} cannot be written (${describeFault(entry.fault)}); ${entry.meanwhile} until it can`;

/** What each store does without its file, in two or three words. */
const WITHOUT: Readonly<Record<StorageName, string>> = { 'webhook queue': 'webhook queue in memory', 'search index': 'search index paused' };

const FAULT_WORDS: Readonly<Record<StorageFault, string>> = {
  full: 'disk full',
  'read-only': 'read-only folder',
  denied: 'permission denied',
  busy: 'locked by another process',
  io: 'disk I/O error',
};

/** The condition in a few words, for a status line: `webhook queue in memory: disk full`. */
export const summarizeDegraded = (entry: DegradedStorage): string => `${WITHOUT[entry.store]}: ${FAULT_WORDS[entry.fault]}`;

/** The stores running degraded now, as `/api/stats` and the dashboard carry them. */
export const degradedWire = (): DegradedStore[] =>
  degradedStorage().map((d) => ({ store: d.store, file: d.file, fault: d.fault, meanwhile: d.meanwhile, since: new Date(d.since).toISOString(), summary: summarizeDegraded(d) }));
