import type { SessionEvent, SessionRef } from '../../core/session.js';

/**
 * Event constructors for the hot paths of the parsers. Plain literals with optional fields
 * assigned afterwards: V8 builds `{ ...ref, ...(x ? { a } : {}) }` through its generic
 * object-spread path, which cost more than JSON.parse itself per record on a cold scan. The
 * events are the same as the spread forms: absent optional fields are absent, never undefined.
 */

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Of<T extends SessionEvent['type']> = Mutable<Extract<SessionEvent, { type: T }>>;

/** A turn; `text` is set when given (also when empty), `counts` only when false. */
export const turnEvent = (ref: SessionRef, at: number, role: 'user' | 'assistant', text: string | undefined, counts = true): SessionEvent => {
  const event: Of<'turn'> = { agent: ref.agent, sessionId: ref.sessionId, type: 'turn', at, role };
  if (text !== undefined) event.text = text;
  if (!counts) event.counts = false;
  return event;
};

/** A tool call; empty `callId` / `filePath` are left out. */
export const toolCallEvent = (ref: SessionRef, at: number, name: string, callId: string | null | undefined, filePath: string | undefined): SessionEvent => {
  const event: Of<'tool_call'> = { agent: ref.agent, sessionId: ref.sessionId, type: 'tool_call', at, name };
  if (callId) event.callId = callId;
  if (filePath) event.filePath = filePath;
  return event;
};

/** A tool result; an empty `callId` is left out, `isError` only when true. */
export const toolResultEvent = (ref: SessionRef, at: number, callId: string | null | undefined, isError = false): SessionEvent => {
  const event: Of<'tool_result'> = { agent: ref.agent, sessionId: ref.sessionId, type: 'tool_result', at };
  if (callId) event.callId = callId;
  if (isError) event.isError = true;
  return event;
};
