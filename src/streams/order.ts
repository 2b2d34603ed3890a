import type { Activity } from '../core/activity.js';
import { orderGroup, type OrderGroup, type SessionOrder } from '../core/session-order.js';

/**
 * The ordering rule of session lists, from a session's facts alone (no memory of a previous
 * order), so every process on the same data lists the same order: the TUI sorts its rows with it,
 * and the dashboard's cards and panel sort the API's `order_group` and `started_at` with it (pure
 * and free of Node, it is bundled into the page).
 *
 * `needs-you` groups sessions by what they need from the user (waiting for you, then working,
 * then idle) and, inside a group, puts the newest started first. A working agent writes records
 * every second; ordering by its last record would reshuffle the list every second, so no key here
 * moves while a session stays in its group: a row moves when its session changes group, and only
 * then. Every order ends on the session id, so two processes on the same data list the same order.
 */

const RANK: Readonly<Record<OrderGroup, number>> = { waiting: 0, working: 1, idle: 2 };

/** What the rule reads of a session; every interface has these at hand. */
export interface OrderFacts {
  readonly id: string;
  readonly activity: Activity;
  /** When the session started (epoch ms); 0 when unknown, which sorts as the oldest. */
  readonly startedAt: number;
  readonly lastActivityAt: number;
  /** The display name (core/session-name.ts). */
  readonly name: string;
  readonly costUsd: number;
  /** The project folder's name and the full working directory (two checkouts of one name). */
  readonly project: string;
  readonly cwd: string;
}

const newestStarted = (a: OrderFacts, b: OrderFacts): number => b.startedAt - a.startedAt;

// Code-unit order: the same in every process and locale.
const compareText = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);
const byId = (a: OrderFacts, b: OrderFacts): number => compareText(a.id, b.id);
const byName = (a: OrderFacts, b: OrderFacts): number => compareText(a.name.toLowerCase(), b.name.toLowerCase());

const COMPARE: Readonly<Record<SessionOrder, (a: OrderFacts, b: OrderFacts) => number>> = {
  'needs-you': (a, b) => RANK[orderGroup(a.activity)] - RANK[orderGroup(b.activity)] || newestStarted(a, b) || byId(a, b),
  recent: (a, b) => b.lastActivityAt - a.lastActivityAt || byId(a, b),
  started: (a, b) => newestStarted(a, b) || byId(a, b),
  name: (a, b) => byName(a, b) || newestStarted(a, b) || byId(a, b),
  cost: (a, b) => b.costUsd - a.costUsd || newestStarted(a, b) || byId(a, b),
  project: (a, b) => compareText(a.project.toLowerCase(), b.project.toLowerCase()) || compareText(a.cwd, b.cwd) || newestStarted(a, b) || byId(a, b),
};

/** The comparator of `order`: a total order (it ends on the id). */
export const compareSessions = (order: SessionOrder): ((a: OrderFacts, b: OrderFacts) => number) => COMPARE[order];

/** `items` sorted by `order` (a copy); `facts` reads each item once. */
export const sortSessions = <T>(items: readonly T[], order: SessionOrder, facts: (item: T) => OrderFacts): T[] => {
  const compare = COMPARE[order];
  return items
    .map((item) => ({ item, facts: facts(item) }))
    .sort((a, b) => compare(a.facts, b.facts))
    .map(({ item }) => item);
};
