// What this parser was checked against (no real Grok file was available): docs/formats/grok.md.
// `backend_tool_call` is the model's server-side search: it runs inside one answer, so it shows
// nothing. Grok records no CLI version: the chat format is the version.
import path from 'node:path';
import type { SessionEvent, SessionMetaPatch } from '../../core/session.js';
import { toolCallEvent, toolResultEvent, turnEvent } from '../internal/event-literals.js';
import { grokResumeCommand } from './descriptor.js';
import { GROK_CHAT_FILE } from './paths.js';
import { grokChatLineSchema, type GrokChatLine, type GrokSummary } from './schema.js';

/** The newest chat format this parser knows; newer transcripts are still read, with a diagnostic. */
export const GROK_CHAT_FORMAT = 1;

const parseTime = (value: string | null | undefined): number => {
  if (!value) return 0;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : 0;
};

/** When the session last did something, by its own summary: last active, else updated, else created. */
export const grokSummaryTime = (summary: GrokSummary): number =>
  parseTime(summary.last_active_at) || parseTime(summary.updated_at) || parseTime(summary.created_at);

/** The cwd directory name is the URL path-escaped absolute cwd (`%2Fhome%2Fdev%2Fparser`). */
export const decodeCwdDir = (name: string): string => {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
};

/** A sub-agent's session: `session_kind` `subagent`, or a forked or resumed one (`subagent_fork`, `subagent_resume`). */
const isGrokSubagent = (summary: GrokSummary): boolean => summary.session_kind?.startsWith('subagent') === true;

/** Session id: `info.id`, else the directory name. */
export const grokSessionId = (summary: GrokSummary, sessionDir: string): string => summary.info?.id || path.basename(sessionDir);

/** Pure: `summary.json` (+ where it lives) to the session's descriptive facts. */
export const grokMeta = (summary: GrokSummary, sessionDir: string): SessionMetaPatch => {
  const id = grokSessionId(summary, sessionDir);
  const title = summary.generated_title || summary.session_summary;
  const createdAt = parseTime(summary.created_at);
  return {
    source: 'cli',
    // The transcript, not the directory: it is the file the discovery cache checkpoints.
    path: path.join(sessionDir, GROK_CHAT_FILE),
    cwd: summary.info?.cwd || decodeCwdDir(path.basename(path.dirname(sessionDir))),
    isSidechain: isGrokSubagent(summary),
    // Sub-agents cannot be resumed on their own.
    resumeCommand: isGrokSubagent(summary) ? '' : grokResumeCommand(id),
    ...(summary.current_model_id ? { model: summary.current_model_id } : {}),
    ...(summary.head_branch ? { gitBranch: summary.head_branch } : {}),
    ...(title ? { agentName: title } : {}),
    ...(createdAt ? { createdAt } : {}),
    ...(grokFormatLabel(summary) ? { version: grokFormatLabel(summary) } : {}),
  };
};

const INJECTED = /^\s*<(user_info|system-reminder)>/;
const USER_QUERY = /<user_query>([\s\S]*?)(?:<\/user_query>|$)/;

/**
 * The person's prompt in a Grok `user` entry, or undefined when the entry is context Grok
 * injected (`<user_info>`, `<system-reminder>`): those are not messages anyone typed.
 */
const realPrompt = (content: GrokChatLine & { type: 'user' }): string | undefined => {
  const text = typeof content.content === 'string' ? content.content : content.content.map((p) => p.text ?? '').join('\n');
  const query = USER_QUERY.exec(text);
  if (query) return (query[1] ?? '').trim();
  if (INJECTED.test(text)) return undefined;
  return text.trim();
};

/** Grok tools that write a file (names as Grok sends them, compared case-insensitively). */
const WRITE_TOOLS = new Set(['write', 'edit', 'write_file', 'edit_file', 'create_file', 'str_replace', 'search_replace', 'multi_edit']);

const writtenPath = (name: string, args: unknown): string | undefined => {
  if (!WRITE_TOOLS.has(name.toLowerCase())) return undefined;
  let value: unknown = args;
  if (typeof args === 'string') {
    try {
      value = JSON.parse(args);
    } catch {
      return undefined;
    }
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const file = record.path ?? record.file_path ?? record.filePath;
  return typeof file === 'string' && file ? file : undefined;
};

/** `chat_history.jsonl` line types Grok writes; any other is counted as unknown_record. */
const KNOWN_LINE_TYPES = new Set(['system', 'user', 'assistant', 'tool_result', 'reasoning', 'backend_tool_call']);

/** The version label of a session: Grok records its chat format, not the CLI version. */
export const grokFormatLabel = (summary: GrokSummary): string | undefined =>
  typeof summary.chat_format_version === 'number' ? `chat format ${summary.chat_format_version}` : undefined;

export type GrokLineResult =
  | { readonly ok: true; readonly events: readonly SessionEvent[]; readonly unknown?: { readonly key: string; readonly what: string } }
  | { readonly ok: false; readonly code: 'E_JUNK_LINE' | 'E_SCHEMA'; readonly message: string };

/**
 * Pure: one `chat_history.jsonl` line to events, all stamped `at` (the transcript has no times;
 * `stampGrokBatch` decides which events keep one).
 */
export const parseGrokLine = (line: string, sessionId: string, at = 0): GrokLineResult => {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { ok: false, code: 'E_JUNK_LINE', message: 'not a JSON line' };
  }
  const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
  if (typeof type === 'string' && !KNOWN_LINE_TYPES.has(type)) return { ok: true, events: [], unknown: { key: type, what: `chat record type "${type}"` } };
  const parsed = grokChatLineSchema.safeParse(raw);
  if (!parsed.success) {
    const type = typeof raw === 'object' && raw !== null && 'type' in raw ? JSON.stringify((raw as { type: unknown }).type) : 'missing';
    return { ok: false, code: 'E_SCHEMA', message: `unexpected chat record (type ${type}): ${parsed.error.issues[0]?.message ?? ''}`.trim() };
  }
  const ref = { agent: 'grok', sessionId } as const;
  const entry = parsed.data;
  switch (entry.type) {
    case 'user': {
      // Entries Grok writes itself carry a `synthetic_reason` (system_reminder, skills,
      // task_completed, compaction_meta...): injected context like <user_info>, not prompts.
      if (entry.synthetic_reason) return { ok: true, events: [] };
      const text = realPrompt(entry);
      return { ok: true, events: text === undefined ? [] : [turnEvent(ref, at, 'user', text)] };
    }
    case 'assistant': {
      const text = (entry.content ?? '').trim();
      const calls = entry.tool_calls ?? [];
      const events: SessionEvent[] = [];
      // A tool-only entry is not an answer; an empty entry without calls still ends the turn.
      if (text || calls.length === 0) events.push(turnEvent(ref, at, 'assistant', text));
      for (const call of calls) events.push(toolCallEvent(ref, at, call.name, call.id, writtenPath(call.name, call.arguments)));
      return { ok: true, events };
    }
    case 'tool_result':
      return { ok: true, events: [toolResultEvent(ref, at, entry.tool_call_id)] };
    default:
      return { ok: true, events: [] };
  }
};

/**
 * Grok's transcript has no timestamps. Within one batch of newly read lines only the last turn
 * and the last tool record are known to be as recent as `at` (the session's own last-active
 * time); earlier ones get 0 ("unknown") rather than a time they did not happen at.
 */
export const stampGrokBatch = (events: readonly SessionEvent[], at: number): SessionEvent[] => {
  const lastTurn = events.findLastIndex((e) => e.type === 'turn');
  const lastTool = events.findLastIndex((e) => e.type === 'tool_call' || e.type === 'tool_result');
  return events.map((event, index) => {
    if (event.type !== 'turn' && event.type !== 'tool_call' && event.type !== 'tool_result') return event;
    const stamped = index === lastTurn || index === lastTool ? at : 0;
    // Lines are parsed with `at` 0: most events already carry their stamp and are kept as they are.
    return event.at === stamped ? event : { ...event, at: stamped };
  });
};
