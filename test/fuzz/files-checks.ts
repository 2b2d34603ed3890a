import type { SessionEvent, SessionState } from '../../src/core/session.js';
import { toDetail } from '../../src/streams/views.js';

/** What the file-source fuzz properties check of a pass: sane states, well-formed diagnostics, states compared. */

/** Diagnostics by `agent:code`, as the fold counts them (an event may stand for several). */
export const diagnosticCounts = (events: readonly SessionEvent[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const e of events) if (e.type === 'diagnostic') counts[`${e.agent}:${e.code}`] = (counts[`${e.agent}:${e.code}`] ?? 0) + (e.count ?? 1);
  return counts;
};

/** A fixed "now" for views: activity derivation depends on it, and both sides of a comparison use it. */
export const VIEW_NOW = Date.parse('2026-12-01T00:00:00.000Z');

const TIME_FIELDS = ['createdAt', 'lastActivityAt', 'lastTurnAt', 'lastFileWriteAt', 'compactionStartedAt', 'compactionEndedAt'] as const;
const COUNT_FIELDS = ['userMessages', 'assistantMessages'] as const;

/** Where `back` (a JSON round trip of `value`) differs from it. */
const roundTripLosses = (value: unknown, back: unknown, at: string): string[] => {
  if (typeof value === 'number') return back === value ? [] : [`${at} is ${value}, ${String(back)} on the wire`];
  if (value === null || typeof value !== 'object') return back === value ? [] : [`${at} changed on the wire`];
  if (back === null || typeof back !== 'object') return [`${at} is ${String(back)} on the wire`];
  return Object.entries(value).flatMap(([key, v]) => roundTripLosses(v, (back as Record<string, unknown>)[key], `${at}.${key}`));
};

/** Every way `state` is not sane; empty when it is (property 1). */
export const insanities = (state: SessionState): string[] => {
  const problems: string[] = [];
  const finite = (what: string, n: unknown): void => {
    if (typeof n !== 'number' || !Number.isFinite(n)) problems.push(`${what} is ${String(n)}`);
  };
  const counter = (what: string, n: unknown): void => {
    finite(what, n);
    if (typeof n === 'number' && n < 0) problems.push(`${what} is negative (${n})`);
  };
  for (const field of TIME_FIELDS) finite(field, state[field]);
  for (const field of COUNT_FIELDS) counter(field, state[field]);
  for (const [name, tokens] of [
    ['tokens', state.tokens],
    ['subagents.tokens', state.subagents.tokens],
    ['inlineSubagents.tokens', state.inlineSubagents.tokens],
  ] as const) {
    for (const [key, n] of Object.entries(tokens)) counter(`${name}.${key}`, n);
  }
  finite('recordedCostUsd', state.recordedCostUsd);
  for (const [i, tool] of [...state.recentTools, ...state.pendingTools].entries()) finite(`tool ${i} at`, tool.at);
  for (const [i, message] of state.recentMessages.entries()) finite(`message ${i} at`, message.at);
  try {
    const detail = toDetail(state, { now: VIEW_NOW });
    // NaN and Infinity become null in JSON: a number that changes in the round trip was one.
    problems.push(...roundTripLosses(detail, JSON.parse(JSON.stringify(detail)) as unknown, 'wire'));
  } catch (error) {
    problems.push(`the wire view throws: ${(error as Error).message}`);
  }
  return problems;
};

/** What a diagnostic must carry: a known code, a message, the agent; problems as text. */
export const badDiagnostics = (events: readonly SessionEvent[]): string[] =>
  events.flatMap((e) => {
    if (e.type !== 'diagnostic') return [];
    const problems: string[] = [];
    if (!e.message) problems.push(`diagnostic ${e.code} without a message`);
    if (e.count !== undefined && !(Number.isInteger(e.count) && e.count > 0)) problems.push(`diagnostic ${e.code} with count ${e.count}`);
    if (e.line !== undefined && !(Number.isInteger(e.line) && e.line > 0)) problems.push(`diagnostic ${e.code} at line ${e.line}`);
    return problems;
  });

/** A state as two reads of the same bytes must agree on: everything but where the read stands. */
export const comparable = (state: SessionState): Omit<SessionState, 'checkpoint'> => {
  const { checkpoint: _checkpoint, ...rest } = state;
  return rest;
};

/** Sessions by id, comparable. */
export const comparableAll = (sessions: Map<string, SessionState>): Record<string, Omit<SessionState, 'checkpoint'>> =>
  Object.fromEntries([...sessions].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, s]) => [id, comparable(s)]));

/** What to print with a failing case so it can be replayed. */
export const replay = (property: string, agent: string, seed: number, seedFile: string, steps: readonly string[]): string =>
  `${property} failed for ${agent}: replay with AGENTWATCH_FUZZ_CASE=${seed} (seed file ${seedFile}; mutations: ${steps.join(' | ') || 'none'})`;
