import type { AgentKind } from '../../core/agents.js';
import type { SessionEvent, TokenCounts } from '../../core/session.js';

/**
 * Event constructors for the replay mappers. Plain object literals on purpose: a replay builds
 * tens of thousands of events, and conditional spreads (`...(x ? { x } : {})`) cost far more in
 * V8 (docs/performance.md). Optional fields left `undefined` mean "not recorded", as in the contract.
 */
export interface Ref {
  readonly agent: AgentKind;
  readonly sessionId: string;
}

export const turnEvent = (ref: Ref, at: number, role: 'user' | 'assistant', text: string | undefined, counts?: boolean): SessionEvent => ({
  agent: ref.agent,
  sessionId: ref.sessionId,
  type: 'turn',
  at,
  role,
  text,
  counts,
});

/** The model at work with no answer yet (reasoning, or an answer still being written). */
export const thinkingEvent = (ref: Ref, at: number): SessionEvent => ({ agent: ref.agent, sessionId: ref.sessionId, type: 'thinking', at });

export const toolCallEvent = (ref: Ref, at: number, name: string, callId: string, filePath: string | undefined): SessionEvent => ({
  agent: ref.agent,
  sessionId: ref.sessionId,
  type: 'tool_call',
  at,
  name,
  callId,
  filePath,
});

export const toolResultEvent = (ref: Ref, at: number, callId: string, isError: boolean): SessionEvent => ({
  agent: ref.agent,
  sessionId: ref.sessionId,
  type: 'tool_result',
  at,
  callId,
  isError,
});

export const usageEvent = (ref: Ref, at: number, messageId: string, tokens: TokenCounts, costUsd: number | undefined): SessionEvent => ({
  agent: ref.agent,
  sessionId: ref.sessionId,
  type: 'usage',
  at,
  messageId,
  tokens,
  costUsd,
});

export const compactionEvent = (ref: Ref, at: number, phase: 'start' | 'end'): SessionEvent => ({
  agent: ref.agent,
  sessionId: ref.sessionId,
  type: 'compaction',
  at,
  phase,
});

export const recordDiagnostic = (ref: Ref, dbPath: string, message: string): SessionEvent => ({
  type: 'diagnostic',
  agent: ref.agent,
  sessionId: ref.sessionId,
  code: 'E_SCHEMA',
  message,
  path: dbPath,
});
