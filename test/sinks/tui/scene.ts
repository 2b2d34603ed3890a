import type { SessionsState } from '../../../src/core/contracts.js';
import { sessionKey, type SessionState } from '../../../src/core/session.js';
import { reduceSession, type SessionScopedEvent } from '../../../src/streams/reduce-session.js';

/** The fixed "now" of every TUI test scene: 2026-03-10 12:00:00 UTC. */
export const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);
export const ago = (ms: number): number => NOW - ms;
const S = 1000;
const M = 60 * S;

/** A session folded from real events by the pipeline's own reducer. */
export const fold = (events: readonly SessionScopedEvent[]): SessionState => {
  let state: SessionState | undefined;
  for (const event of events) state = reduceSession(state, event);
  if (!state) throw new Error('scene: events folded to nothing');
  return state;
};

const claude = fold([
  { type: 'meta', agent: 'claude', sessionId: 'c1', patch: { cwd: '/home/dev/acme-api', model: 'claude-sonnet-4-5', gitBranch: 'main', version: '2.0.14', resumeCommand: 'claude --resume c1' } },
  { type: 'turn', agent: 'claude', sessionId: 'c1', at: ago(9 * M), role: 'user', text: 'Add rate limiting to the login route' },
  { type: 'tool_call', agent: 'claude', sessionId: 'c1', at: ago(8 * M), name: 'Read', callId: 't1' },
  { type: 'tool_result', agent: 'claude', sessionId: 'c1', at: ago(8 * M - 2 * S), callId: 't1' },
  { type: 'turn', agent: 'claude', sessionId: 'c1', at: ago(4 * M), role: 'assistant', text: 'I will add a token bucket\nin src/limits.ts.' },
  { type: 'usage', agent: 'claude', sessionId: 'c1', at: ago(4 * M), tokens: { input: 1200, output: 3400, cacheCreation: 20_000, cacheRead: 180_000 } },
  { type: 'tool_call', agent: 'claude', sessionId: 'c1', at: ago(3 * S), name: 'Edit', callId: 't2', filePath: '/home/dev/acme-api/src/limits.ts' },
]);

const codex = fold([
  { type: 'meta', agent: 'codex', sessionId: 'x1', patch: { cwd: '/home/dev/parser', model: 'gpt-5-codex', gitBranch: 'feat/tokens', resumeCommand: 'codex resume x1' } },
  { type: 'turn', agent: 'codex', sessionId: 'x1', at: ago(2 * M), role: 'user', text: 'Why does the lexer drop the last token?' },
  { type: 'turn', agent: 'codex', sessionId: 'x1', at: ago(40 * S), role: 'assistant', text: 'The loop stops one character early.' },
  { type: 'usage', agent: 'codex', sessionId: 'x1', tokens: { input: 5000, output: 800, cacheCreation: 0, cacheRead: 0 }, mode: 'total' },
]);

const pi = fold([
  { type: 'meta', agent: 'pi', sessionId: 'p1', patch: { cwd: '/home/dev/notes', model: 'claude-haiku-4-5' } },
  { type: 'turn', agent: 'pi', sessionId: 'p1', at: ago(3 * S), role: 'user', text: 'summarise today' },
  { type: 'usage', agent: 'pi', sessionId: 'p1', tokens: { input: 40, output: 10, cacheCreation: 0, cacheRead: 0 } },
]);

const amp = fold([
  { type: 'meta', agent: 'amp', sessionId: 'a1', patch: { cwd: '/home/dev/web-shop', agentName: 'Checkout page' } },
  { type: 'turn', agent: 'amp', sessionId: 'a1', at: ago(22 * M), role: 'user', text: 'fix the checkout button' },
  { type: 'turn', agent: 'amp', sessionId: 'a1', at: ago(21 * M), role: 'assistant', text: 'Done.' },
]);

const grok = fold([
  { type: 'meta', agent: 'grok', sessionId: 'g1', patch: { cwd: '/srv/infra/terraform' } },
  { type: 'turn', agent: 'grok', sessionId: 'g1', at: ago(30 * S), role: 'user', text: 'plan the upgrade' },
  { type: 'tool_call', agent: 'grok', sessionId: 'g1', at: ago(2 * S), name: 'Bash', callId: 'b1' },
]);

const oldOne = fold([
  { type: 'meta', agent: 'kimi', sessionId: 'k1', patch: { cwd: '/home/dev/old' } },
  { type: 'turn', agent: 'kimi', sessionId: 'k1', at: ago(50 * M), role: 'user', text: 'old work' },
]);

export const SCENE_SESSIONS: readonly SessionState[] = [claude, codex, pi, amp, grok, oldOne];

export const sessionsState = (sessions: readonly SessionState[], ready = true, diagnostics: Record<string, number> = {}): SessionsState => ({
  sessions: new Map(sessions.map((s) => [sessionKey(s), s])),
  diagnostics,
  ready,
});

export const SCENE: SessionsState = sessionsState(SCENE_SESSIONS);
