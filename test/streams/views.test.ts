import { describe, expect, it } from 'vitest';
import { NO_SUBAGENTS, type SessionState } from '../../src/core/session.js';
import { emptySession } from '../../src/streams/empty-session.js';
import { resumeCommand, shortName, toDetail, toSummary } from '../../src/streams/views.js';

const NOW = Date.UTC(2026, 2, 10, 9, 16, 0);
const session: SessionState = {
  ...emptySession('claude', '6d1f0c9e'),
  cwd: '/home/dev/acme-api',
  model: 'claude-sonnet-4-5-20250929',
  gitBranch: 'feat/ratelimit',
  version: '2.0.31',
  agentName: 'Rate limiter',
  lastActivityAt: Date.UTC(2026, 2, 10, 9, 15, 14, 20),
  lastTurn: 'assistant',
  lastTurnAt: Date.UTC(2026, 2, 10, 9, 15, 14, 20),
  userMessages: 1,
  assistantMessages: 3,
  tokens: { input: 19, output: 233, cacheCreation: 4640, cacheRead: 44159 },
  recentTools: [{ name: 'Edit', at: Date.UTC(2026, 2, 10, 9, 15, 11, 402), callId: 'toolu_1', done: true }],
  recentMessages: [{ role: 'assistant', text: 'Added a token bucket.', at: Date.UTC(2026, 2, 10, 9, 15, 14, 20) }],
  lastFileWrite: '/home/dev/acme-api/server.go',
  lastFileWriteAt: Date.UTC(2026, 2, 10, 9, 15, 11, 402),
};

describe('views', () => {
  it('builds the summary wire object', () => {
    expect(toSummary(session, { now: NOW, customNames: { '6d1f0c9e': 'limiter work' } })).toEqual({
      session_id: '6d1f0c9e',
      agent: 'claude',
      cwd: '/home/dev/acme-api',
      short_name: 'acme-api',
      agent_name: 'Rate limiter',
      custom_name: 'limiter work',
      source: 'cli',
      activity: 'waiting',
      is_active: false,
      model: 'claude-sonnet-4-5-20250929',
      git_branch: 'feat/ratelimit',
      cost_usd: 0.0342, // 19x3 + 233x15 + 4640x3.75 + 44159x0.3 per million
      cost_source: 'price-table',
      last_activity: '2026-03-10T09:15:14.020Z',
      total_messages: 4,
      display_name: 'limiter work',
      // The keys of the list order: no start recorded here (the unknown time), waiting for you.
      started_at: '0001-01-01T00:00:00Z',
      order_group: 'waiting',
      waiting_since: '2026-03-10T09:15:14.020Z',
    });
    expect(toSummary({ ...session, createdAt: Date.UTC(2026, 2, 10, 9, 0, 0) }, { now: NOW }).started_at).toBe('2026-03-10T09:00:00.000Z');
  });

  it('names the session by its latest prompt when neither the user nor the agent did', () => {
    const untitled = { ...session, agentName: '', recentMessages: [{ role: 'user' as const, text: '<command-name>/review</command-name><command-args>pr 12</command-args>', at: NOW - 1 }] };
    expect(toSummary(untitled, { now: NOW }).display_name).toBe('/review pr 12');
    expect(toSummary({ ...untitled, recentMessages: [] }, { now: NOW }).display_name).toBe('acme-api');
  });

  it('builds the detail wire object with worktree facts and a default resume command', () => {
    const detail = toDetail(session, { now: NOW, worktree: { isWorktree: true, mainRepo: '/home/dev/acme' } });
    expect(detail).toMatchObject({
      custom_name: '',
      version: '2.0.31',
      is_worktree: true,
      main_repo: '/home/dev/acme',
      input_tokens: 19,
      output_tokens: 233,
      cache_creation_tokens: 4640,
      cache_read_tokens: 44159,
      user_messages: 1,
      assistant_messages: 3,
      current_tool: '',
      last_file_write: '/home/dev/acme-api/server.go',
      last_file_write_at: '2026-03-10T09:15:11.402Z',
      recent_tools: [{ name: 'Edit', timestamp: '2026-03-10T09:15:11.402Z' }],
      recent_messages: [{ role: 'assistant', text: 'Added a token bucket.', timestamp: '2026-03-10T09:15:14.020Z' }],
      resume_command: 'claude --resume 6d1f0c9e',
    });
  });

  it('names the tool that decides the activity as current_tool', () => {
    const running = { ...session, lastTurn: 'tool_call' as const, lastTurnAt: NOW - 2_000, pendingTools: [{ name: 'Bash', at: NOW - 2_000, done: false }] };
    expect(toDetail(running, { now: NOW })).toMatchObject({ activity: 'running', is_active: true, current_tool: 'Bash' });
  });

  it('uses the recorded cost when present, and "" for unknown times', () => {
    const fresh = { ...emptySession('pi', 'p1'), recordedCostUsd: 0.0123 };
    expect(toDetail(fresh, { now: NOW })).toMatchObject({ cost_usd: 0.0123, cost_source: 'agent', last_activity: '0001-01-01T00:00:00Z', last_file_write_at: '0001-01-01T00:00:00Z', short_name: '', resume_command: 'pi --session p1' });
  });

  it('has no cost, and no source, for a model no one prices; an estimated sub-agent cost makes the figure an estimate', () => {
    const unpriced = { ...session, model: 'default', subagents: NO_SUBAGENTS };
    expect(toSummary(unpriced, { now: NOW })).toMatchObject({ cost_usd: 0, cost_source: null });
    const withChildren = { ...unpriced, subagents: { sessions: 1, tokens: { input: 1, output: 0, cacheCreation: 0, cacheRead: 0 }, costUsd: 0.5 } };
    expect(toSummary(withChildren, { now: NOW })).toMatchObject({ cost_usd: 0.5, cost_source: 'price-table' });
  });

  it('short names and resume commands', () => {
    expect(shortName('/home/dev/acme-api/')).toBe('acme-api');
    expect(shortName('/')).toBe('/');
    expect(resumeCommand({ ...emptySession('codex', 'r1') })).toBe('codex resume r1');
    // Grok resumes a session by id; a grok sub-agent cannot be resumed on its own.
    expect(resumeCommand({ ...emptySession('grok', 'g1') })).toBe('grok --resume g1');
    expect(resumeCommand({ ...emptySession('grok', 'g2'), isSidechain: true })).toBe('');
    expect(resumeCommand({ ...emptySession('claude', 'c1'), resumeCommand: 'claude -r c1' })).toBe('claude -r c1');
  });
});
