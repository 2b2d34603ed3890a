import { describe, expect, it } from 'vitest';
import type { Activity } from '../../src/core/activity.js';
import { nextSessionOrder, orderGroup, SESSION_ORDERS } from '../../src/core/session-order.js';
import { sortSessions, type OrderFacts } from '../../src/streams/order.js';
import type { SessionOrder } from '../../src/core/session-order.js';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);

const session = (id: string, activity: Activity, over: Partial<OrderFacts> = {}): OrderFacts => ({
  id,
  activity,
  startedAt: NOW - 60_000,
  lastActivityAt: NOW - 1_000,
  name: id,
  costUsd: 0,
  project: 'app',
  cwd: '/w/app',
  ...over,
});

const ids = (list: readonly OrderFacts[], order: SessionOrder): string[] => sortSessions(list, order, (s) => s).map((s) => s.id);

describe('the order of session lists', () => {
  it('groups by what a session needs (waiting, working, idle), newest started first inside a group', () => {
    const list = [
      session('idle-new', 'idle', { startedAt: NOW - 10_000 }),
      session('work-old', 'running', { startedAt: NOW - 50_000 }),
      session('wait', 'waiting', { startedAt: NOW - 90_000 }),
      session('work-new', 'thinking', { startedAt: NOW - 20_000 }),
      session('idle-old', 'idle', { startedAt: NOW - 99_000 }),
    ];
    expect(ids(list, 'needs-you')).toEqual(['wait', 'work-new', 'work-old', 'idle-new', 'idle-old']);
    expect(['waiting', 'running', 'idle', 'compacting'].map((a) => orderGroup(a as Activity))).toEqual(['waiting', 'working', 'idle', 'working']);
  });

  it('holds still while sessions work: a new record moves nobody, a change of group moves only that session', () => {
    const a = session('a', 'running', { startedAt: NOW - 30_000 });
    const b = session('b', 'reading', { startedAt: NOW - 20_000 });
    const c = session('c', 'writing', { startedAt: NOW - 10_000 });
    expect(ids([a, b, c], 'needs-you')).toEqual(['c', 'b', 'a']);
    // a writes a record every second: its last activity moves, its place does not.
    expect(ids([{ ...a, lastActivityAt: NOW + 5_000 }, b, c], 'needs-you')).toEqual(['c', 'b', 'a']);
    // b ends its turn: it goes first (waiting for you); the others keep their order.
    expect(ids([a, { ...b, activity: 'waiting' }, c], 'needs-you')).toEqual(['b', 'c', 'a']);
  });

  it('breaks every tie by the session id, whatever order the sessions came in', () => {
    const same = ['c', 'a', 'b'].map((id) => session(id, 'idle'));
    for (const order of SESSION_ORDERS) {
      expect(ids(same, order)).toEqual(['a', 'b', 'c']);
      expect(ids([...same].reverse(), order)).toEqual(['a', 'b', 'c']);
    }
  });

  it('offers recent, started, name, cost and project orders', () => {
    const list = [
      session('x', 'idle', { lastActivityAt: NOW - 5_000, startedAt: NOW - 9_000, name: 'beta', costUsd: 2, project: 'zed', cwd: '/w/zed' }),
      session('y', 'waiting', { lastActivityAt: NOW - 1_000, startedAt: NOW - 99_000, name: 'Alpha', costUsd: 0.5, project: 'api', cwd: '/w/api' }),
      session('z', 'running', { lastActivityAt: NOW - 3_000, startedAt: NOW - 1_000, name: 'gamma', costUsd: 7, project: 'Api', cwd: '/v/api' }),
    ];
    expect(ids(list, 'recent')).toEqual(['y', 'z', 'x']);
    expect(ids(list, 'started')).toEqual(['z', 'x', 'y']);
    expect(ids(list, 'name')).toEqual(['y', 'x', 'z']);
    expect(ids(list, 'cost')).toEqual(['z', 'x', 'y']);
    expect(ids(list, 'project')).toEqual(['z', 'y', 'x']);
  });

  it('cycles through every order and back', () => {
    let order: SessionOrder = SESSION_ORDERS[0];
    const seen: SessionOrder[] = [order];
    for (let i = 1; i < SESSION_ORDERS.length; i += 1) seen.push((order = nextSessionOrder(order)));
    expect(seen).toEqual([...SESSION_ORDERS]);
    expect(nextSessionOrder(order)).toBe('needs-you');
  });
});
