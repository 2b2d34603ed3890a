import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../src/core/session.js';
import { sessionName } from '../src/core/session-name.js';
import { relativeTime, renderSessionsTable } from '../src/commands/sessions-render.js';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);
const row = (patch: Partial<SessionSummary>): SessionSummary => {
  const s: Omit<SessionSummary, 'display_name'> = {
    session_id: 's',
    agent: 'claude',
    cwd: '/w/api',
    short_name: 'api',
    agent_name: '',
    custom_name: '',
    source: 'cli',
    activity: 'idle',
    is_active: false,
    model: '',
    git_branch: '',
    cost_usd: 0,
    cost_source: null,
    last_activity: new Date(NOW - 90_000).toISOString(),
    total_messages: 0,
    started_at: '0001-01-01T00:00:00Z',
    order_group: 'idle',
    waiting_since: '',
    ...patch,
  };
  return { ...s, display_name: patch.display_name ?? sessionName(s, '').text };
};

describe('relativeTime', () => {
  it.each([
    [5_000, '5s ago'],
    [59_999, '59s ago'],
    [60_000, '1m ago'],
    [3_599_000, '59m ago'],
    [3_600_000, '1h ago'],
    [86_400_000 * 3, '3d ago'],
    [-5_000, '0s ago'],
  ])('%i ms ago -> %s', (ago, expected) => {
    expect(relativeTime(new Date(NOW - ago).toISOString(), NOW)).toBe(expected);
  });

  it('unknown time is a dash', () => {
    expect(relativeTime('', NOW)).toBe('-');
  });
});

describe('renderSessionsTable', () => {
  it('aligns columns, prefers the custom name, cuts long names, no color codes when color is off', () => {
    const text = renderSessionsTable(
      [
        row({ agent: 'codex', activity: 'running', short_name: 'billing', agent_name: 'JPY rounding', custom_name: 'mine' }),
        row({ agent: 'opencode', activity: 'waiting', agent_name: 'x'.repeat(60), last_activity: '0001-01-01T00:00:00Z' }),
      ],
      { now: NOW, color: false },
    );
    expect(text).toBe(
      [
        'AGENT     STATE    PROJECT  NAME                                      LAST ACTIVITY',
        'Codex     running  billing  mine                                      1m ago',
        `OpenCode  waiting  api      ${'x'.repeat(39)}…  -`,
        '',
      ].join('\n'),
    );
  });

  it('colors the state on request', () => {
    const text = renderSessionsTable([row({ activity: 'waiting' })], { now: NOW, color: true });
    expect(text).toContain('\u001b[');
  });
});
