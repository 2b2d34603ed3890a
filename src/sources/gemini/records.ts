import type { AgentKind } from '../../core/agents.js';
import type { SessionEvent, SessionMetaPatch, TokenCounts } from '../../core/session.js';
import { epochMs } from '../internal/line-helpers.js';
import type { UnknownRecords } from '../internal/unknown-records.js';
import type { GeminiFileKind } from './paths.js';
import { geminiRowSchema, type GeminiRow, type GeminiTokens, type GeminiToolCall } from './schema.js';

/**
 * Who wrote a Gemini-style chat: Gemini CLI, or Qwen Code (its fork) in its older single-document
 * chats, whose model messages are of type `qwen`.
 */
export interface GeminiDialect {
  readonly agent: Extract<AgentKind, 'gemini' | 'qwen'>;
  /** The writer's name in diagnostics. */
  readonly product: string;
  /** The `type` of the model's messages. */
  readonly answer: string;
  readonly resumeCommand: (sessionId: string) => string;
}

/** Rows that are notices of the CLI to the person, not turns. */
const NOTICE_TYPES = new Set(['info', 'warning', 'error']);
/** Context the CLI sends as a user message: a turn for state, not a prompt. */
const INJECTED_PREFIXES = ['<session_context>', '<hook_context>'];
/** What the CLI sends by itself after an empty or broken answer, recorded as a user message. */
const CONTINUE_REQUEST = 'System: Please continue.';
/** Tools whose `file_path` argument is a file the agent wrote. */
const WRITE_TOOLS = new Set(['write_file', 'replace']);
/** A finished call's status that is a failure. */
const FAILED = new Set(['error', 'cancelled']);
/** The statuses of a call that has not finished (any other status, or none, is a finished call). */
const PENDING = new Set(['validating', 'scheduled', 'awaiting_approval', 'executing']);

/** The text parts of a message's `content` (a string, a part, or a list of both). */
const geminiText = (content: unknown): string => {
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((part) => (typeof part === 'string' ? part : typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : ''))
    .join('');
};

/**
 * Gemini's usage as agentwatch counts it: the prompt count includes the cached part (taken out as
 * cache read) and not the prompt of tool use (added in); thinking is billed as output.
 */
const geminiTokens = (t: GeminiTokens): TokenCounts => {
  const prompt = t.input ?? 0;
  const cached = Math.min(t.cached ?? 0, prompt);
  return { input: prompt - cached + (t.tool ?? 0), output: (t.output ?? 0) + (t.thoughts ?? 0), cacheCreation: 0, cacheRead: cached };
};

export type GeminiMessage = GeminiRow & { id: string; type: string };

export interface GeminiRecordsOptions {
  readonly file: string;
  readonly kind: GeminiFileKind;
  readonly cwd: string | undefined;
  readonly dialect: GeminiDialect;
  readonly unknown: UnknownRecords;
  /** The state was announced before (a warm start resumes mid-file): no first `meta` again. */
  readonly started: boolean;
  readonly model: string | undefined;
  /** Message and tool call ids already read (a message is written again whenever it changes). */
  readonly seen: Set<string>;
}

/**
 * The events of Gemini-style chat records, however they are stored (a JSONL line each, or the
 * messages of one document): a message counts the first time its id is seen, and its later copies
 * add what changed (usage, finished tool calls); the summary is the title.
 */
export const createGeminiRecords = (options: GeminiRecordsOptions) => {
  const { file, kind, cwd, dialect, unknown, seen } = options;
  const { agent } = dialect;
  let sessionId = kind.provisionalId;
  let started = options.started;
  let model = options.model;
  // The usage last counted per message id (a changed one replaces it).
  const usage = new Map<string, string>();
  // Calls reported as started and not yet finished.
  const open = new Set<string>();
  const ref = () => ({ agent, sessionId }) as const;
  const where = () => ({ sessionId, path: file });

  const startEvents = (extra: SessionMetaPatch = {}, at?: number): SessionEvent[] => {
    if (started) return Object.keys(extra).length > 0 ? [{ type: 'meta', ...ref(), at, patch: extra }] : [];
    started = true;
    const sub = kind.kind === 'subagent';
    const patch: SessionMetaPatch = {
      path: file,
      source: 'cli',
      isSidechain: sub,
      ...(sub ? { parentId: kind.parentId } : { resumeCommand: dialect.resumeCommand(sessionId) }),
      ...(cwd ? { cwd } : {}),
      ...extra,
    };
    return [{ type: 'meta', ...ref(), at, patch }];
  };

  /** A call once started, and its result once it has a final status. */
  const toolEvents = (call: GeminiToolCall, fallbackAt: number): SessionEvent[] => {
    const at = epochMs(call.timestamp) || fallbackAt;
    const events: SessionEvent[] = [];
    if (!open.has(call.id)) {
      const target = WRITE_TOOLS.has(call.name) ? call.args?.file_path : undefined;
      events.push({ type: 'tool_call', ...ref(), at, name: call.name, callId: call.id, filePath: typeof target === 'string' ? target : undefined });
    }
    if (call.status !== undefined && PENDING.has(call.status)) {
      open.add(call.id);
      return events;
    }
    open.delete(call.id);
    seen.add(call.id);
    events.push({ type: 'tool_result', ...ref(), at, callId: call.id, isError: call.status !== undefined && FAILED.has(call.status) });
    return events;
  };

  const message = (row: GeminiMessage, at: number): SessionEvent[] => {
    if (NOTICE_TYPES.has(row.type)) return [];
    if (row.type !== 'user' && row.type !== dialect.answer) return unknown.once(`type:${row.type}`, `message type "${row.type}"`, where());
    const before = seen.has(row.id);
    seen.add(row.id);
    const events: SessionEvent[] = [];
    if (row.type === 'user') {
      if (before) return [];
      const text = geminiText(row.content);
      const injected = text.trim() === CONTINUE_REQUEST || INJECTED_PREFIXES.some((prefix) => text.trimStart().startsWith(prefix));
      return [{ type: 'turn', ...ref(), at, role: 'user', text, ...(injected ? { counts: false } : {}) }];
    }
    if (row.model && row.model !== model) events.push(...startEvents({ model: (model = row.model) }, at));
    if (!before) {
      const text = geminiText(row.content);
      // A reply of tool calls alone is written before the tools run, with no text: still working.
      if (text.trim() !== '') events.push({ type: 'turn', ...ref(), at, role: 'assistant', text });
      else if ((row.toolCalls ?? []).length === 0) events.push({ type: 'thinking', ...ref(), at });
    }
    for (const call of row.toolCalls ?? []) if (!seen.has(call.id)) events.push(...toolEvents(call, at));
    if (row.tokens) {
      const key = JSON.stringify(row.tokens);
      if (key !== usage.get(row.id)) {
        usage.set(row.id, key);
        events.push({ type: 'usage', ...ref(), at, messageId: row.id, tokens: geminiTokens(row.tokens) });
      }
    }
    return events;
  };

  /** A row that is a message (an object with `id` and `type`); anything else gives nothing. */
  const rowEvents = (raw: unknown): SessionEvent[] => {
    const parsed = geminiRowSchema.safeParse(raw);
    if (!parsed.success) return [];
    const row = parsed.data;
    if (row.id === undefined || row.type === undefined) return [];
    return [...startEvents(), ...message(row as GeminiMessage, epochMs(row.timestamp))];
  };

  /** Header fields set later (`$set`, or a document's own): the summary is the title; `messages` a checkpoint. */
  const setEvents = (set: Record<string, unknown>, at: number): SessionEvent[] => {
    const events: SessionEvent[] = [];
    if (typeof set.summary === 'string' && set.summary.trim() !== '') events.push(...startEvents({ agentName: set.summary.trim() }, at));
    // A checkpoint: the messages as they stand, each read as a row.
    if (Array.isArray(set.messages)) for (const raw of set.messages) events.push(...rowEvents(raw));
    return events;
  };

  return {
    sessionId: () => sessionId,
    /** The session's id from the header, unless a state was already announced under another. */
    named: (id: string): void => {
      if (!started) sessionId = id;
    },
    startEvents,
    message,
    rowEvents,
    setEvents,
  };
};
