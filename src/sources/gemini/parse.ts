// The Gemini CLI chat format this parser was checked against: docs/formats/gemini.md.
import type { SessionEvent, SessionMetaPatch, SessionState, TokenCounts } from '../../core/session.js';
import type { FileParser } from '../internal/file-parser.js';
import { decodeLine, epochMs, undatedRecord } from '../internal/line-helpers.js';
import { valueKey } from '../internal/skim.js';
import { createUnknownRecords } from '../internal/unknown-records.js';
import { geminiResumeCommand } from './descriptor.js';
import { idsBefore } from './ids-before.js';
import type { GeminiFileKind } from './paths.js';
import { geminiRowSchema, type GeminiRow, type GeminiTokens, type GeminiToolCall } from './schema.js';

const agent = 'gemini';
/** Message text kept whole when a long line is parsed. */
const TEXT_KEYS = [valueKey('text'), valueKey('content')];
/** Rows that are notices of the CLI to the person, not turns. */
const NOTICE_TYPES = new Set(['info', 'warning', 'error']);
/** Context the CLI sends as a user message: a turn for state, not a prompt. */
const INJECTED_PREFIXES = ['<session_context>', '<hook_context>'];
/** What the CLI sends by itself after an empty or broken answer, recorded as a user message. */
const CONTINUE_REQUEST = 'System: Please continue.';
/** Tools whose `file_path` argument is a file the agent wrote. */
const WRITE_TOOLS = new Set(['write_file', 'replace']);
/** A finished call's status; a call is written once it has one. */
const FAILED = new Set(['error', 'cancelled']);

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

/**
 * The line parser of one Gemini CLI chat file (docs/formats/gemini.md): the header names the
 * session; a message row counts the first time its id is seen, and its later copies add what
 * changed (usage, finished tool calls); `$set` gives the summary as the title.
 */
export const createGeminiParser = (file: string, kind: GeminiFileKind, cwd: string | undefined, resumed: boolean, restored?: SessionState): FileParser => {
  let sessionId = kind.provisionalId;
  let started = resumed;
  let model = resumed ? restored?.model : undefined;
  // The message and tool call ids read so far (a message is written again whenever it changes);
  // resumed, those before the offset the warm start resumes from.
  const seen = resumed ? idsBefore(file, restored?.checkpoint?.offset ?? 0) : new Set<string>();
  // The usage last counted per message id (a changed one replaces it).
  const usage = new Map<string, string>();
  const unknown = createUnknownRecords(agent, 'Gemini CLI');
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
      ...(sub ? { parentId: kind.parentId } : { resumeCommand: geminiResumeCommand(sessionId) }),
      ...(cwd ? { cwd } : {}),
      ...extra,
    };
    return [{ type: 'meta', ...ref(), at, patch }];
  };

  const toolEvents = (call: GeminiToolCall, fallbackAt: number): SessionEvent[] => {
    const at = epochMs(call.timestamp) || fallbackAt;
    const target = WRITE_TOOLS.has(call.name) ? call.args?.file_path : undefined;
    return [
      { type: 'tool_call', ...ref(), at, name: call.name, callId: call.id, filePath: typeof target === 'string' ? target : undefined },
      { type: 'tool_result', ...ref(), at, callId: call.id, isError: call.status !== undefined && FAILED.has(call.status) },
    ];
  };

  const message = (row: GeminiRow & { id: string; type: string }, at: number): SessionEvent[] => {
    if (NOTICE_TYPES.has(row.type)) return [];
    if (row.type !== 'user' && row.type !== 'gemini') return unknown.once(`type:${row.type}`, `message type "${row.type}"`, where());
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
    for (const call of row.toolCalls ?? []) {
      if (seen.has(call.id)) continue;
      seen.add(call.id);
      events.push(...toolEvents(call, at));
    }
    if (row.tokens) {
      const key = JSON.stringify(row.tokens);
      if (key !== usage.get(row.id)) {
        usage.set(row.id, key);
        events.push({ type: 'usage', ...ref(), at, messageId: row.id, tokens: geminiTokens(row.tokens) });
      }
    }
    return events;
  };

  const setEvents = (set: Record<string, unknown>, at: number): SessionEvent[] => {
    const events: SessionEvent[] = [];
    if (typeof set.summary === 'string' && set.summary.trim() !== '') events.push(...startEvents({ agentName: set.summary.trim() }, at));
    // A checkpoint: the messages as they stand, each read as a row.
    if (Array.isArray(set.messages)) for (const raw of set.messages) events.push(...rowEvents(raw));
    return events;
  };

  const rowEvents = (raw: unknown): SessionEvent[] => {
    const parsed = geminiRowSchema.safeParse(raw);
    if (!parsed.success) return [];
    const row = parsed.data;
    const at = epochMs(row.timestamp);
    if (row.id !== undefined && row.type !== undefined) return [...startEvents(), ...message(row as GeminiRow & { id: string; type: string }, at)];
    return [];
  };

  const line = (bytes: Buffer): SessionEvent[] => {
    const decoded = decodeLine(agent, geminiRowSchema, bytes, where(), TEXT_KEYS);
    if (!decoded.ok) return decoded.event ? [decoded.event] : [];
    const row = decoded.value;
    if (row.$set) return setEvents(row.$set, epochMs(row.$set.lastUpdated));
    // A rewind drops turns from the conversation; what they cost was spent (docs/formats/gemini.md).
    if (row.$rewindTo !== undefined) return [];
    if (row.id !== undefined && row.type !== undefined) {
      const at = epochMs(row.timestamp);
      const undated = undatedRecord(agent, row.timestamp, at, where());
      return [...undated, ...startEvents(), ...message(row as GeminiRow & { id: string; type: string }, at)];
    }
    if (row.sessionId !== undefined && row.projectHash !== undefined) {
      if (!started) sessionId = row.sessionId;
      const createdAt = epochMs(row.startTime);
      return startEvents(createdAt > 0 ? { createdAt } : {}, createdAt || undefined);
    }
    return unknown.once(`keys:${Object.keys(row).sort().join(',')}`, `row with keys ${Object.keys(row).sort().join(', ')}`, where());
  };

  return { sessionId: () => sessionId, start: () => [], line };
};
