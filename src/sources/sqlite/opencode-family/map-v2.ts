// OpenCode 2.x's message union (user, synthetic, system, shell, assistant with text/reasoning/tool
// content, compaction, agent-switched, model-switched) and `session_message` table (id, session_id,
// type, seq, time_created, time_updated, data); 2.0.x databases keep `session_v2` beside the frozen
// 1.x tables and write `location-switched` and `idle` rows (docs/formats/opencode.md).
import type { z } from 'zod';
import type { SessionEvent } from '../../../core/session.js';
import { asCopied } from '../../internal/copies.js';
import { compactionEvent, thinkingEvent, toolCallEvent, toolResultEvent, turnEvent, usageEvent, type Ref } from '../events.js';
import { numberOf, parseJsonValue } from '../values.js';
import {
  v2AssistantSchema,
  v2CompactionSchema,
  v2ContentSchema,
  v2ModelSwitchedSchema,
  v2ShellSchema,
  v2SyntheticSchema,
  v2UserSchema,
  type V2Assistant,
} from './schema-v2.js';
import type { MessageTokens } from './schema.js';
import { writtenFile } from './tools.js';

/** A `session_message` row as the reader selects it (missing optional columns read as NULL). */
export interface FamilyV2MessageRow {
  readonly id: string;
  readonly type: unknown;
  /** Its place in the session (NULL where the table has no `seq`). */
  readonly seq?: unknown;
  readonly time_created: unknown;
  readonly time_updated: unknown;
  readonly data: unknown;
}

/** Where the replay reports rows it cannot use, and kinds of record it does not know (once each). */
export interface ReplayReport {
  readonly bad: (what: string, id: string, error: string) => void;
  readonly unknown: (key: string, what: string) => void;
}

/** A message's usage event (both generations record tokens and cost the same way); none when it records neither. */
export const messageUsage = (ref: Ref, at: number, messageId: string, tokens: MessageTokens, cost: number | null | undefined): SessionEvent[] => {
  if (!tokens && !cost) return [];
  const counts = {
    input: tokens?.input ?? 0,
    // Reasoning tokens are billed as output.
    output: (tokens?.output ?? 0) + (tokens?.reasoning ?? 0),
    cacheCreation: tokens?.cache?.write ?? 0,
    cacheRead: tokens?.cache?.read ?? 0,
  };
  return [usageEvent(ref, at, messageId, counts, cost || undefined)];
};

/** Message types that carry nothing agentwatch shows (context updates, switches, the runner going idle). */
const IGNORED_TYPES: ReadonlySet<string> = new Set(['system', 'agent-switched', 'location-switched', 'idle']);
const TOOL_DONE = new Set(['completed', 'error']);
/** The name a prompt's shell command (`!cmd`) is shown under: it runs like the agent's own bash. */
const SHELL_TOOL = 'bash';

const textOf = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value;
  if (!Array.isArray(value)) return undefined;
  const texts = value.flatMap((item: unknown) =>
    typeof item === 'object' && item !== null && 'text' in item && typeof item.text === 'string' && item.text.trim() !== '' ? [item.text] : [],
  );
  return texts.length > 0 ? texts.join('\n') : undefined;
};

const errorText = (error: unknown): string | undefined => {
  if (typeof error === 'string') return error === '' ? undefined : error;
  if (typeof error !== 'object' || error === null) return undefined;
  const record = error as { message?: unknown; data?: { message?: unknown }; name?: unknown; type?: unknown };
  for (const candidate of [record.message, record.data?.message, record.name, record.type]) {
    if (typeof candidate === 'string' && candidate !== '') return candidate;
  }
  return undefined;
};

/**
 * A message row's `data` parsed with `schema`, or undefined when it is unusable: not JSON, or not
 * of the schema (reported, the row skipped). Both stores' messages are read through it.
 */
export const messageData = <S extends z.ZodType>(row: { readonly id: string; readonly data: unknown }, schema: S, report: ReplayReport): z.output<S> | undefined => {
  const json = parseJsonValue(row.data);
  if (!json.ok) {
    report.bad('message', row.id, json.error);
    return undefined;
  }
  const parsed = schema.safeParse(json.value);
  if (parsed.success) return parsed.data;
  report.bad('message', row.id, parsed.error.issues[0]?.message ?? 'invalid');
  return undefined;
};

/**
 * An assistant message: its content in order (a reasoning block is the model thinking, a text its
 * answer, a tool item a call and, once completed or failed, its result), then its usage. A
 * finished message that did not stop for more tool calls and did not end on an answer (an error,
 * an abort) hands the turn back to the user, as in 1.x (map.ts).
 */
const assistantEvents = (ref: Ref, row: FamilyV2MessageRow, data: V2Assistant, at: number, report: ReplayReport): SessionEvent[] => {
  const out: SessionEvent[] = [];
  // Text and reasoning items carry no time of their own: they happened after what came before.
  let cursor = at;
  let counted = false;
  let endsOnAnswer = false;
  let lastAnswer = -1;
  for (const [index, raw] of (data.content ?? []).entries()) {
    const parsed = v2ContentSchema.safeParse(raw);
    if (!parsed.success) {
      report.bad('message', `${row.id} content ${index}`, parsed.error.issues[0]?.message ?? 'invalid');
      continue;
    }
    const item = parsed.data;
    if (item.type === 'text') {
      const text = item.synthetic || item.ignored ? undefined : textOf(item.text);
      if (text === undefined) continue;
      lastAnswer = out.length;
      out.push(turnEvent(ref, cursor, 'assistant', text, counted ? false : undefined));
      counted = true;
      endsOnAnswer = true;
    } else if (item.type === 'reasoning') {
      if (textOf(item.text) === undefined) continue;
      out.push(thinkingEvent(ref, cursor));
      endsOnAnswer = false;
    } else if (item.type === 'tool') {
      const name = item.name || 'unknown';
      const callId = item.id || `${row.id}:${index}`;
      const callAt = item.time?.created ?? cursor;
      const input = item.state?.input;
      const filePath = typeof input === 'object' && input !== null && !Array.isArray(input) ? writtenFile(name, input as Record<string, unknown>) : undefined;
      out.push(toolCallEvent(ref, callAt, name, callId, filePath));
      cursor = Math.max(cursor, callAt);
      const status = item.state?.status ?? '';
      if (TOOL_DONE.has(status)) {
        const doneAt = item.time?.completed ?? item.time?.ran ?? numberOf(row.time_updated) ?? callAt;
        out.push(toolResultEvent(ref, doneAt, callId, status === 'error'));
        cursor = Math.max(cursor, doneAt);
      }
      endsOnAnswer = false;
    } else {
      report.unknown(`content:${item.type}`, `assistant content type "${item.type}"`);
    }
  }
  const completedAt = data.time?.completed;
  if (endsOnAnswer) {
    // The answer it ends on was given when the message completed (a long one streams for
    // minutes); until then the model is still writing it.
    const answer = out[lastAnswer];
    if (completedAt !== undefined && answer?.type === 'turn' && completedAt > answer.at) out[lastAnswer] = { ...answer, at: completedAt };
    else if (completedAt === undefined && data.finish === undefined) out.push(thinkingEvent(ref, Math.max(cursor, numberOf(row.time_updated) ?? cursor)));
  }
  out.push(...messageUsage(ref, at, row.id, data.tokens, data.cost));
  if (completedAt !== undefined && data.finish !== 'tool-calls' && !endsOnAnswer) out.push(turnEvent(ref, completedAt, 'assistant', errorText(data.error), false));
  return out;
};

/**
 * What one message adds to its session's replay: its events, the time it was written (where
 * messages of both stores are merged, the order), and the model it names, if any.
 */
export interface MessageChunk {
  readonly at: number;
  readonly events: readonly SessionEvent[];
  readonly model: string | undefined;
}

const NO_EVENTS: readonly SessionEvent[] = [];

/** One `session_message` row -> its chunk (undefined for a row that is skipped: reported, or ignored). */
const v2Chunk = (ref: Ref, row: FamilyV2MessageRow, report: ReplayReport): MessageChunk | undefined => {
  const type = typeof row.type === 'string' ? row.type : '';
  const rowAt = numberOf(row.time_created) ?? 0;
  if (IGNORED_TYPES.has(type)) return undefined;
  if (type === 'user') {
    const data = messageData(row, v2UserSchema, report);
    const at = data?.time?.created ?? rowAt;
    return data && { at, events: [turnEvent(ref, at, 'user', textOf(data.text))], model: undefined };
  }
  if (type === 'synthetic') {
    // OpenCode speaking to itself starts the model working, but nobody typed it: not a prompt.
    const data = messageData(row, v2SyntheticSchema, report);
    const at = data?.time?.created ?? rowAt;
    return data && { at, events: [turnEvent(ref, at, 'user', undefined, false)], model: undefined };
  }
  if (type === 'assistant') {
    const data = messageData(row, v2AssistantSchema, report);
    const at = data?.time?.created ?? rowAt;
    return data && { at, events: assistantEvents(ref, row, data, at, report), model: data.model };
  }
  if (type === 'shell') {
    const data = messageData(row, v2ShellSchema, report);
    if (!data) return undefined;
    const at = data.time?.created ?? rowAt;
    const callId = data.callID || row.id;
    const events = [toolCallEvent(ref, at, SHELL_TOOL, callId, undefined)];
    const completedAt = data.time?.completed;
    // Releases that record a status say when it ended; the others only by `completed`.
    const done = data.status ? data.status !== 'running' : completedAt !== undefined;
    if (done) events.push(toolResultEvent(ref, completedAt ?? numberOf(row.time_updated) ?? at, callId, data.status === 'error'));
    return { at, events, model: undefined };
  }
  if (type === 'compaction') {
    const data = messageData(row, v2CompactionSchema, report);
    if (!data) return undefined;
    const at = data.time?.created ?? rowAt;
    const events = [compactionEvent(ref, at, 'start')];
    // Written when it starts with an empty summary, completed in place (some releases add a status).
    const running = data.status ? data.status === 'running' : !data.summary;
    if (!running) events.push(compactionEvent(ref, data.time?.completed ?? numberOf(row.time_updated) ?? at, 'end'));
    return { at, events, model: undefined };
  }
  if (type === 'model-switched') {
    const data = messageData(row, v2ModelSwitchedSchema, report);
    return data && { at: data.time?.created ?? rowAt, events: NO_EVENTS, model: data.model };
  }
  report.unknown(`type:${type}`, `session_message type "${type}"`);
  return undefined;
};

/**
 * Where a fork's copy of its parent stops, as OpenCode 2.x records it in `session_v2.fork_boundary`
 * (JSON such as {"type":"before","messageID":"msg_..."}): the parent's message it names, and
 * whether that message was copied too (every type but "before" names the last message copied).
 */
export interface ForkBoundary {
  readonly messageId: string;
  readonly inclusive: boolean;
}

/** The boundary of a fork, or undefined when there is none or it is not of that shape. */
export const parseForkBoundary = (raw: unknown): ForkBoundary | undefined => {
  const json = parseJsonValue(raw);
  if (!json.ok || typeof json.value !== 'object' || json.value === null) return undefined;
  const value = json.value as { type?: unknown; messageID?: unknown };
  if (typeof value.messageID !== 'string' || value.messageID === '') return undefined;
  return { messageId: value.messageID, inclusive: value.type !== 'before' };
};

/**
 * Which messages of a fork are its copies of the parent's, as resolved from the database: those
 * before the boundary's `seq` (the `seq` of the parent's message it names; copies keep the
 * parent's `seq`), and the boundary's own when `inclusive`; or, where the boundary could not be
 * resolved, those of the listed `seq`s (the ones identical to the parent's message at that `seq`).
 */
export type ForkCopies = { readonly boundarySeq: number; readonly inclusive: boolean } | { readonly seqs: ReadonlySet<number> };

/** Whether a row of a fork is one of its copies. A row without a `seq` never is. */
const isForkCopy = (copies: ForkCopies, row: FamilyV2MessageRow): boolean => {
  const seq = numberOf(row.seq);
  if (seq === undefined) return false;
  if ('seqs' in copies) return copies.seqs.has(seq);
  return seq < copies.boundarySeq || (copies.inclusive && seq === copies.boundarySeq);
};

/**
 * Pure: the `session_message` rows of one OpenCode 2.x session, in `seq` order -> one chunk per
 * message that carries something. Bad rows are reported and skipped; the rest is still read. In a
 * fork, the rows `copies` names are read as copies (`asCopied`: their history stays, so the fork's
 * activity reads right, but they add no usage and no message count, already counted in the parent).
 */
export const v2Chunks = (ref: Ref, rows: readonly FamilyV2MessageRow[], report: ReplayReport, copies?: ForkCopies): MessageChunk[] => {
  const chunks: MessageChunk[] = [];
  for (const row of rows) {
    const chunk = v2Chunk(ref, row, report);
    if (!chunk) continue;
    chunks.push(copies && isForkCopy(copies, row) ? { ...chunk, events: asCopied(chunk.events) } : chunk);
  }
  return chunks;
};
