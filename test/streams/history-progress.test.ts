import { describe, expect, it } from 'vitest';
import { initialFoldState, reduceSessions } from '../../src/streams/sessions-reducer.js';

describe('the fold: how much of the history the first discovery pass has read', () => {
  it('sums the latest progress of each source; ready still waits for every source', () => {
    const start = initialFoldState(['claude', 'codex']);
    expect(start.history).toBeUndefined();
    const one = reduceSessions(start, [
      { type: 'progress', agent: 'claude', read: 10, total: 100 },
      { type: 'progress', agent: 'codex', read: 0, total: 50 },
      { type: 'progress', agent: 'claude', read: 40, total: 100 },
    ]).state;
    expect(one.history).toEqual({ read: 40, total: 150 });
    expect(one.ready).toBe(false);
    const two = reduceSessions(one, [
      { type: 'progress', agent: 'claude', read: 100, total: 100 },
      { type: 'progress', agent: 'codex', read: 50, total: 50 },
      { type: 'ready', agent: 'claude' },
    ]).state;
    expect(two.history).toEqual({ read: 150, total: 150 });
    expect(two.ready).toBe(false);
    expect(reduceSessions(two, [{ type: 'ready', agent: 'codex' }]).state).toMatchObject({ ready: true, history: { read: 150, total: 150 } });
  });
});
