import { isActiveActivity, type Activity } from './activity.js';

/**
 * The orders a session list can be in (`sort_order` in the config; `S` in the TUI, Settings in the
 * dashboard). The rule itself is `streams/order.ts`.
 */
export const SESSION_ORDERS = ['needs-you', 'recent', 'started', 'name', 'cost', 'project'] as const;
export type SessionOrder = (typeof SESSION_ORDERS)[number];

/** What each order is called in the title bar, the help and the dashboard's Settings. */
export const SESSION_ORDER_LABEL: Readonly<Record<SessionOrder, string>> = {
  'needs-you': 'needs you first',
  recent: 'recent activity',
  started: 'newest started',
  name: 'name',
  cost: 'cost',
  project: 'project',
};

export const nextSessionOrder = (order: SessionOrder): SessionOrder => SESSION_ORDERS[(SESSION_ORDERS.indexOf(order) + 1) % SESSION_ORDERS.length] ?? 'needs-you';

/** What a session needs from its user, in the order `needs-you` lists the groups. */
export type OrderGroup = 'waiting' | 'working' | 'idle';

export const orderGroup = (activity: Activity): OrderGroup => (activity === 'waiting' ? 'waiting' : isActiveActivity(activity) ? 'working' : 'idle');
