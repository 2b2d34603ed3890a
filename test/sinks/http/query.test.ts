import { describe, expect, it } from 'vitest';
import { listQuerySchema, selectSessions } from '../../../src/sinks/http/query.js';
import { detail } from './helpers.js';

const sessions = [
  detail({ session_id: 'a', cwd: '/work/app', short_name: 'app', activity: 'writing', is_active: true }),
  detail({ session_id: 'b', cwd: '/work/app/src', short_name: 'src', agent_name: 'Fix The Login', activity: 'waiting' }),
  detail({ session_id: 'c', cwd: '/work/application', short_name: 'application', custom_name: 'Billing', activity: 'idle' }),
  detail({ session_id: 'd', cwd: '/srv/other', short_name: 'other', activity: 'thinking', is_active: true }),
];
const ids = (query: Record<string, string>) => selectSessions(sessions, listQuerySchema.parse(query)).map((s) => s.session_id);

describe('selectSessions', () => {
  it('returns everything for an empty query, order kept', () => {
    expect(ids({})).toEqual(['a', 'b', 'c', 'd']);
  });

  it('searches path and names case-insensitively', () => {
    expect(ids({ search: 'APPLICATION' })).toEqual(['c']);
    expect(ids({ search: 'login' })).toEqual(['b']);
    expect(ids({ search: 'billing' })).toEqual(['c']);
    expect(ids({ search: '/srv' })).toEqual(['d']);
  });

  it('filters by "active" or one activity', () => {
    expect(ids({ filter: 'active' })).toEqual(['a', 'd']);
    expect(ids({ filter: 'waiting' })).toEqual(['b']);
    expect(ids({ filter: '' })).toEqual(['a', 'b', 'c', 'd']);
  });

  it('matches dir by path segment, not by string prefix', () => {
    expect(ids({ dir: '/work/app' })).toEqual(['a', 'b']);
    expect(ids({ dir: '/work/app/' })).toEqual(['a', 'b']);
    expect(ids({ dir: '/work' })).toEqual(['a', 'b', 'c']);
    expect(ids({ dir: '/' })).toEqual(['a', 'b', 'c', 'd']);
    expect(ids({ dir: '/work/app', filter: 'waiting' })).toEqual(['b']);
  });
});

describe('listQuerySchema', () => {
  it('refuses a relative dir and an unknown filter with clear messages', () => {
    expect(listQuerySchema.safeParse({ dir: 'work/app' }).error?.issues[0]?.message).toBe('dir must be an absolute path');
    expect(listQuerySchema.safeParse({ filter: 'sleeping' }).error?.issues[0]?.message).toMatch(/^filter must be "", "active" or an activity/);
    expect(listQuerySchema.safeParse({ search: ['a', 'b'] }).error?.issues[0]?.message).toBe('search must be a single string');
  });
});
