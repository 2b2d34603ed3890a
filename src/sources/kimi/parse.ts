// The Kimi Code wire protocol versions this parser was checked against: docs/formats/kimi.md.
// The older `turn.end` and loop `compaction.begin/end` records of earlier releases are still read.
import path from 'node:path';
import type { SessionEvent, SessionRef } from '../../core/session.js';
import { toolCallEvent, toolResultEvent, turnEvent } from '../internal/event-literals.js';
import { timeMs } from '../internal/times.js';
import { KIMI_IGNORED_TYPES, KIMI_LOOP_EVENTS, KIMI_RECORD_TYPES, kimiWireRecordSchema, type KimiWireRecord } from './schema.js';

/** Carried from line to line: records without a time inherit the last one seen. */
export interface KimiParseState {
  readonly clock: number;
  /** The wire protocol version of the file's `metadata` header, once read. */
  readonly version?: string;
  /** The cwd a `config.update` record named (wire 1.1+), for relative paths when the index has none. */
  readonly cwd?: string;
}
export const KIMI_START: KimiParseState = { clock: 0 };

/** A record type or loop event this parser does not know: the caller counts it once per file. */
interface KimiUnknown {
  readonly key: string;
  readonly what: string;
}

export type KimiLineResult =
  | { readonly ok: true; readonly state: KimiParseState; readonly events: readonly SessionEvent[]; readonly unknown?: KimiUnknown }
  | { readonly ok: false; readonly state: KimiParseState; readonly code: 'E_JUNK_LINE' | 'E_SCHEMA'; readonly message: string };

/** Tools whose arguments name the file they write (raw Kimi names: legacy and native). */
const WRITE_TOOLS = new Set(['WriteFile', 'StrReplaceFile', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

const argsObject = (args: unknown): Record<string, unknown> | undefined => {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
};

const writtenPath = (name: string, args: unknown, cwd: string): string | undefined => {
  if (!WRITE_TOOLS.has(name)) return undefined;
  const record = argsObject(args);
  const file = record?.path ?? record?.file_path;
  if (typeof file !== 'string' || !file) return undefined;
  return path.isAbsolute(file) || !cwd ? file : path.join(cwd, file);
};

const textOf = (content: string | readonly { type: string; text?: string | undefined }[] | null | undefined): string => {
  if (!content) return '';
  if (typeof content === 'string') return content.trim();
  // `think` blocks are the model's reasoning: never shown, never counted.
  return content
    .flatMap((block) => (block.type === 'text' && block.text ? [block.text] : []))
    .join('\n')
    .trim();
};

/** The model and cwd a record names, as a meta event (none when it names neither). */
const modelAndCwd = (ref: SessionRef, at: number, model: string | undefined, cwd: string | undefined): SessionEvent[] => {
  const patch = { ...(model ? { model } : {}), ...(cwd ? { cwd } : {}) };
  return Object.keys(patch).length > 0 ? [{ agent: ref.agent, sessionId: ref.sessionId, type: 'meta', at, patch }] : [];
};

const recordEvents = (record: KimiWireRecord, ref: SessionRef, at: number, cwd: string): SessionEvent[] => {
  switch (record.type) {
    case 'metadata': {
      const version = record.app_version ?? record.protocol_version;
      return [{ agent: ref.agent, sessionId: ref.sessionId, type: 'meta', at, patch: { ...(version ? { version } : {}), ...(record.created_at ? { createdAt: record.created_at } : {}) } }];
    }
    case 'config.update':
      // wire 1.1+ writes the session's cwd here too (the index may not list the session yet).
      return modelAndCwd(ref, at, record.modelAlias, record.cwd);
    case 'profile.bind':
      return modelAndCwd(ref, at, record.modelAlias, record.environmentDisclosure?.cwd);
    case 'usage.record': {
      // A session-scoped record is the running total of the turn records before it: counted, it
      // would count every token twice. Records without a scope (older releases) are per step.
      if (record.usageScope !== undefined && record.usageScope !== 'turn') return [];
      const u = record.usage;
      return [{ agent: ref.agent, sessionId: ref.sessionId, type: 'usage', at, tokens: { input: u.inputOther, output: u.output, cacheCreation: u.inputCacheCreation, cacheRead: u.inputCacheRead } }];
    }
    case 'turn.end':
    case 'turn.ended':
    case 'turn.cancel':
      // The turn is over: the agent waits for the person, whatever the last record was.
      return [turnEvent(ref, at, 'assistant', undefined, false)];
    case 'full_compaction.begin':
      return [{ agent: ref.agent, sessionId: ref.sessionId, type: 'compaction', at, phase: 'start' }];
    case 'full_compaction.complete':
    case 'full_compaction.cancel':
      return [{ agent: ref.agent, sessionId: ref.sessionId, type: 'compaction', at, phase: 'end' }];
    case 'context.apply_compaction':
      // The compacted context replaces the old one (wire 1.1 writes only this record for it).
      return [{ agent: ref.agent, sessionId: ref.sessionId, type: 'compaction', at, phase: 'start' }];
    case 'context.append_message': {
      const message = record.message;
      const text = textOf(message.content);
      if (message.role === 'user') {
        // A reminder or a command's output Kimi Code adds in the user's role is context, not a
        // prompt: it neither counts nor starts a turn (one after an answer would read thinking).
        if (message.origin?.kind && message.origin.kind !== 'user') return [];
        return [turnEvent(ref, at, 'user', text, text !== '')];
      }
      if (message.role === 'tool') return [toolResultEvent(ref, at, message.toolCallId)];
      if (message.role !== 'assistant') return [];
      const events: SessionEvent[] = text ? [turnEvent(ref, at, 'assistant', text)] : [];
      for (const call of message.toolCalls ?? []) {
        events.push(toolCallEvent(ref, at, call.function.name, call.id, writtenPath(call.function.name, call.function.arguments, cwd)));
      }
      return events;
    }
    case 'context.append_loop_event': {
      const event = record.event;
      switch (event.type) {
        case 'content.part': {
          const text = event.part?.type === 'text' ? (event.part.text ?? '').trim() : '';
          return text ? [turnEvent(ref, at, 'assistant', text)] : [];
        }
        case 'tool.call': {
          const name = event.name ?? '';
          return [toolCallEvent(ref, at, name, event.toolCallId, writtenPath(name, event.args, cwd))];
        }
        case 'tool.result':
          return [toolResultEvent(ref, at, event.toolCallId)];
        case 'step.end':
          // A step that stopped for tool use continues after the results; any other stop answers.
          return event.finishReason === 'tool_use' ? [] : [turnEvent(ref, at, 'assistant', undefined, false)];
        case 'compaction.begin':
          return [{ agent: ref.agent, sessionId: ref.sessionId, type: 'compaction', at, phase: 'start' }];
        case 'compaction.end':
          return [{ agent: ref.agent, sessionId: ref.sessionId, type: 'compaction', at, phase: 'end' }];
        default:
          // step.begin and the rest: the state already reads "thinking" after a prompt or result.
          return [];
      }
    }
  }
};

const KNOWN_TYPES: ReadonlySet<string> = new Set(KIMI_RECORD_TYPES);

const timeOf = (record: Record<string, unknown>): number => timeMs(record.time ?? record.created_at);

/**
 * Pure: one `wire.jsonl` line (plus the clock carried from the lines before) to events.
 * `cwd` resolves relative file paths of write tools. Record types that carry nothing for us
 * (`turn.prompt`, `step.begin`'s siblings, future types) only move the clock: they skip zod.
 */
export const parseKimiLine = (state: KimiParseState, line: string, ref: SessionRef, cwd = ''): KimiLineResult => {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { ok: false, state, code: 'E_JUNK_LINE', message: 'not a JSON line' };
  }
  if (typeof raw !== 'object' || raw === null || typeof (raw as { type?: unknown }).type !== 'string') {
    return { ok: false, state, code: 'E_SCHEMA', message: 'wire record without a type' };
  }
  const envelope = raw as Record<string, unknown> & { type: string };
  const protocol = envelope.type === 'metadata' && typeof envelope.protocol_version === 'string' ? envelope.protocol_version : state.version;
  const ownCwd = envelope.type === 'config.update' && typeof envelope.cwd === 'string' && envelope.cwd ? envelope.cwd : state.cwd;
  const next: KimiParseState = { clock: Math.max(state.clock, timeOf(envelope)), ...(protocol ? { version: protocol } : {}), ...(ownCwd ? { cwd: ownCwd } : {}) };
  if (!KNOWN_TYPES.has(envelope.type)) {
    if (KIMI_IGNORED_TYPES.has(envelope.type)) return { ok: true, state: next, events: [] };
    return { ok: true, state: next, events: [], unknown: { key: envelope.type, what: `wire record type "${envelope.type}"` } };
  }
  const record = kimiWireRecordSchema.safeParse(raw);
  if (!record.success) {
    return { ok: false, state: next, code: 'E_SCHEMA', message: `bad ${envelope.type} record: ${record.error.issues[0]?.message ?? ''}`.trim() };
  }
  const events = recordEvents(record.data, ref, next.clock, cwd || next.cwd || '');
  if (record.data.type === 'context.append_loop_event' && !KIMI_LOOP_EVENTS.has(record.data.event.type)) {
    const loop = record.data.event.type;
    return { ok: true, state: next, events, unknown: { key: `loop:${loop}`, what: `loop event "${loop}"` } };
  }
  return { ok: true, state: next, events };
};
