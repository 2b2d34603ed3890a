// The Kimi CLI wire format this parser was checked against: docs/formats/kimi.md.
import path from 'node:path';
import type { SessionEvent, SessionMetaPatch, SessionState } from '../../core/session.js';
import type { FileParser } from '../internal/file-parser.js';
import { decodeLine } from '../internal/line-helpers.js';
import { valueKey } from '../internal/skim.js';
import { timeMs } from '../internal/times.js';
import { createUnknownRecords } from '../internal/unknown-records.js';
import { kimiResumeCommand } from './descriptor.js';
import { kimiLegacyLineSchema } from './legacy-schema.js';

const agent = 'kimi';
const TEXT_KEYS = [valueKey('text'), valueKey('user_input')];
/** Wire messages that carry nothing agentwatch shows. */
const IGNORED = new Set([
  'StepInterrupted',
  'StepRetry',
  'HookTriggered',
  'HookResolved',
  'HookRequest',
  'HookResponse',
  'MCPLoadingBegin',
  'MCPLoadingEnd',
  'MCPServerSnapshot',
  'MCPStatusSnapshot',
  'Notification',
  'PlanDisplay',
  'BtwBegin',
  'BtwEnd',
  'SubagentEvent',
  'ApprovalResponse',
  'ApprovalRequestResolved',
  'QuestionResponse',
  'ToolCallRequest',
  'ToolCallPart',
  'ImageURLPart',
  'AudioURLPart',
  'VideoURLPart',
]);
/** Tools whose arguments name the file they write. */
const WRITE_TOOLS = new Set(['WriteFile', 'StrReplaceFile']);

const textOf = (input: unknown): string =>
  typeof input === 'string'
    ? input
    : Array.isArray(input)
      ? (input as { type?: unknown; text?: unknown }[])
          .filter((p) => p?.type === 'text' && typeof p.text === 'string')
          .map((p) => p.text as string)
          .join('\n')
      : '';

const writtenFile = (name: string, args: unknown, cwd: string | undefined): string | undefined => {
  if (!WRITE_TOOLS.has(name) || typeof args !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return undefined;
  }
  const file = (parsed as { path?: unknown } | null)?.path;
  if (typeof file !== 'string' || file === '') return undefined;
  return path.isAbsolute(file) || !cwd ? file : path.join(cwd, file);
};

/**
 * The line parser of one Kimi CLI `wire.jsonl` (docs/formats/kimi.md): a `metadata` line with the
 * wire protocol version, then `{timestamp, message: {type, payload}}` records, `timestamp` in
 * seconds. Turns begin with the prompt (`TurnBegin`), steps with `StepBegin`; text, thinking,
 * tool calls and results, each step's token usage (`StatusUpdate`), compactions.
 */
export const createKimiLegacyParser = (file: string, sessionId: string, cwdOf: () => string | undefined, resumed: boolean, restored?: SessionState): FileParser => {
  const ref = { agent, sessionId } as const;
  const where = { sessionId, path: file };
  let sawCreated = resumed && (restored === undefined || restored.createdAt > 0);
  let version = resumed ? restored?.version : undefined;
  let cwd = resumed ? restored?.cwd : undefined;
  // Records without a time (none are expected) take the last one seen.
  let clock = resumed ? (restored?.lastActivityAt ?? 0) : 0;
  const unknown = createUnknownRecords(agent, 'Kimi CLI');

  const payloadEvents = (type: string, p: Record<string, unknown>, at: number): SessionEvent[] => {
    switch (type) {
      case 'TurnBegin':
      case 'SteerInput':
        return [{ type: 'turn', ...ref, at, role: 'user', text: textOf(p.user_input) }];
      case 'TurnEnd':
        // The turn is over: an uncounted answer hands it back to the user.
        return [{ type: 'turn', ...ref, at, role: 'assistant', counts: false }];
      case 'StepBegin':
      case 'ThinkPart':
        return [{ type: 'thinking', ...ref, at }];
      case 'TextPart': {
        const text = typeof p.text === 'string' ? p.text : '';
        return text.trim() === '' ? [] : [{ type: 'turn', ...ref, at, role: 'assistant', text }];
      }
      case 'ToolCall': {
        const fn = p.function as { name?: unknown; arguments?: unknown } | undefined;
        const name = typeof fn?.name === 'string' ? fn.name : '';
        const written = writtenFile(name, fn?.arguments, cwd);
        return [{ type: 'tool_call', ...ref, at, name, ...(typeof p.id === 'string' ? { callId: p.id } : {}), ...(written ? { filePath: written } : {}) }];
      }
      case 'ToolResult': {
        const value = p.return_value as { is_error?: unknown } | undefined;
        return [{ type: 'tool_result', ...ref, at, ...(typeof p.tool_call_id === 'string' ? { callId: p.tool_call_id } : {}), isError: value?.is_error === true }];
      }
      case 'StatusUpdate': {
        const u = p.token_usage as Record<string, unknown> | null | undefined;
        if (!u) return [];
        const n = (key: string): number => (typeof u[key] === 'number' && (u[key] as number) >= 0 ? (u[key] as number) : 0);
        const tokens = { input: n('input_other'), output: n('output'), cacheCreation: n('input_cache_creation'), cacheRead: n('input_cache_read') };
        return [{ type: 'usage', ...ref, at, tokens, ...(typeof p.message_id === 'string' ? { messageId: p.message_id } : {}) }];
      }
      case 'CompactionBegin':
        return [{ type: 'compaction', ...ref, at, phase: 'start' }];
      case 'CompactionEnd':
        return [{ type: 'compaction', ...ref, at, phase: 'end' }];
      case 'ApprovalRequest':
      case 'QuestionRequest':
        // The agent asks the user: the turn is theirs until they answer.
        return [{ type: 'turn', ...ref, at, role: 'assistant', counts: false }];
      default:
        return IGNORED.has(type) ? [] : unknown.once(`type:${type}`, `wire message "${type}"`, { ...where, ...(version ? { version } : {}) });
    }
  };

  return {
    sessionId: () => sessionId,
    start: () => {
      const found = cwd ?? cwdOf();
      if (found) cwd = found;
      return [{ type: 'meta', ...ref, patch: { path: file, source: 'cli', resumeCommand: kimiResumeCommand(sessionId), ...(found ? { cwd: found } : {}) } }];
    },
    line: (bytes) => {
      const decoded = decodeLine(agent, kimiLegacyLineSchema, bytes, where, TEXT_KEYS);
      if (!decoded.ok) return decoded.event ? [decoded.event] : [];
      const r = decoded.value;
      if (r.type === 'metadata') {
        if (!r.protocol_version || r.protocol_version === version) return [];
        return [{ type: 'meta', ...ref, patch: { version: (version = r.protocol_version) } }];
      }
      if (!r.message) return unknown.once(`line:${r.type ?? ''}`, `wire line "${r.type ?? ''}"`, where);
      const own = timeMs(typeof r.timestamp === 'number' ? r.timestamp * 1000 : undefined);
      const at = own > 0 ? (clock = Math.max(clock, own)) : clock;
      const created: SessionMetaPatch = !sawCreated && at > 0 ? ((sawCreated = true), { createdAt: at }) : {};
      const head: SessionEvent[] = Object.keys(created).length > 0 ? [{ type: 'meta', ...ref, at, patch: created }] : [];
      return [...head, ...payloadEvents(r.message.type, r.message.payload ?? {}, at)];
    },
  };
};
