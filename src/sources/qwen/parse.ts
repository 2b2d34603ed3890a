// The Qwen Code chat format this parser was checked against: docs/formats/qwen.md.
import type { SessionEvent, SessionMetaPatch, SessionState, TokenCounts } from '../../core/session.js';
import type { FileParser } from '../internal/file-parser.js';
import { decodeLine, epochMs, undatedRecord } from '../internal/line-helpers.js';
import { valueKey } from '../internal/skim.js';
import { createUnknownRecords } from '../internal/unknown-records.js';
import { qwenResumeCommand } from './descriptor.js';
import { qwenRecordSchema, type QwenRecord } from './schema.js';

const agent = 'qwen';
const TEXT_KEYS = [valueKey('text')];
/** `system` records that carry nothing agentwatch shows; other subtypes are unknown_record. */
const IGNORED_SYSTEM = new Set([
  'session_notes',
  'slash_command',
  'ui_telemetry',
  'at_command',
  'attribution_snapshot',
  'notification',
  'background_task_completed',
  'cron',
  'parent_session',
  'session_source',
  'session_execution_engine',
  'omni_recall',
  'session_approval_mode',
  'rewind',
  'agent_bootstrap',
  'agent_launch_prompt',
  'agent_retry',
  'agent_session_ready',
  'file_history_snapshot',
  'user_text_elements',
  'session_artifact_event',
  'session_artifact_snapshot',
  'session_sources_snapshot',
  'branch_checkpoint',
  'goal_state',
  'goal_runtime',
  'goal_turn_end',
  'realtime_message',
  'turn_result',
]);
/** Records of a prompt nobody typed (goal loops, system notices sent as the user). */
const NOT_TYPED = new Set(['system', 'goal_runtime', 'goal_control']);
/** Tools whose `file_path` argument is a file the agent wrote. */
const WRITE_TOOLS = new Set(['write_file', 'edit', 'replace']);
const FAILED = new Set(['error', 'cancelled']);

/** Usage as Qwen Code records it (Gemini's shape): cached input out of input, thinking in output. */
const qwenTokens = (u: NonNullable<QwenRecord['usageMetadata']>): TokenCounts => {
  const prompt = u.promptTokenCount ?? 0;
  const cached = Math.min(u.cachedContentTokenCount ?? 0, prompt);
  return { input: prompt - cached + (u.toolUsePromptTokenCount ?? 0), output: (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0), cacheCreation: 0, cacheRead: cached };
};

/**
 * The line parser of one Qwen Code chat file (docs/formats/qwen.md): every record names the
 * working directory, branch and CLI version; user, assistant and tool_result records are turns,
 * tool calls and their results; `system` records give the title, the model and compactions. A
 * sub-agent's records (`isSidechain`) count their usage here and nothing else.
 */
export const createQwenParser = (file: string, sessionId: string, resumed: boolean, restored?: SessionState): FileParser => {
  const ref = { agent, sessionId } as const;
  const where = { sessionId, path: file };
  const known: { cwd?: string; gitBranch?: string; version?: string; model?: string } = resumed && restored ? { cwd: restored.cwd, gitBranch: restored.gitBranch, version: restored.version, model: restored.model } : {};
  let sawCreated = resumed && (restored === undefined || restored.createdAt > 0);
  const unknown = createUnknownRecords(agent, 'Qwen Code');

  const patchOf = (r: QwenRecord, at: number): SessionMetaPatch => {
    const patch: { cwd?: string; gitBranch?: string; version?: string; model?: string; createdAt?: number } = {};
    if (r.cwd && r.cwd !== known.cwd) patch.cwd = known.cwd = r.cwd;
    if (r.gitBranch && r.gitBranch !== known.gitBranch) patch.gitBranch = known.gitBranch = r.gitBranch;
    if (r.version && r.version !== known.version) patch.version = known.version = r.version;
    if (r.model && r.model !== known.model) patch.model = known.model = r.model;
    if (!sawCreated && at > 0) {
      sawCreated = true;
      patch.createdAt = at;
    }
    return patch;
  };

  const textOf = (r: QwenRecord): string =>
    (r.message?.parts ?? [])
      .filter((p) => p.thought !== true && typeof p.text === 'string')
      .map((p) => p.text)
      .join('');

  const usage = (r: QwenRecord, at: number): SessionEvent[] => (r.usageMetadata ? [{ type: 'usage', ...ref, at, messageId: r.uuid, tokens: qwenTokens(r.usageMetadata) }] : []);

  const recordEvents = (r: QwenRecord, at: number): SessionEvent[] => {
    if (r.isSidechain === true) return usage(r, at);
    switch (r.type) {
      case 'user': {
        const text = textOf(r);
        const typed = r.provenance === undefined || !NOT_TYPED.has(r.provenance);
        return [{ type: 'turn', ...ref, at, role: 'user', text, ...(typed ? {} : { counts: false }) }];
      }
      case 'assistant': {
        const events: SessionEvent[] = [];
        const text = textOf(r);
        const calls = (r.message?.parts ?? []).flatMap((p) => (p.functionCall?.name ? [p.functionCall] : []));
        if (text.trim() !== '') events.push({ type: 'turn', ...ref, at, role: 'assistant', text });
        for (const call of calls) {
          const target = WRITE_TOOLS.has(call.name ?? '') ? call.args?.file_path : undefined;
          events.push({ type: 'tool_call', ...ref, at, name: call.name ?? '', callId: call.id, filePath: typeof target === 'string' ? target : undefined });
        }
        if (events.length === 0) events.push({ type: 'thinking', ...ref, at });
        return [...events, ...usage(r, at)];
      }
      case 'tool_result': {
        const callId = r.toolCallResult?.callId ?? r.message?.parts?.find((p) => p.functionResponse?.id)?.functionResponse?.id;
        return [{ type: 'tool_result', ...ref, at, callId, isError: FAILED.has(r.toolCallResult?.status ?? '') }];
      }
      case 'system':
        switch (r.subtype) {
          case 'custom_title': {
            const title = r.systemPayload?.customTitle;
            return typeof title === 'string' && title.trim() !== '' ? [{ type: 'meta', ...ref, at, patch: { agentName: title.trim() } }] : [];
          }
          case 'session_model': {
            const model = r.systemPayload?.modelId;
            return typeof model === 'string' && model !== known.model ? [{ type: 'meta', ...ref, at, patch: { model: (known.model = model) } }] : [];
          }
          case 'chat_compression':
            return [{ type: 'compaction', ...ref, at, phase: 'start' }];
          case 'mid_turn_user_message':
            return [{ type: 'turn', ...ref, at, role: 'user', text: textOf(r) }];
          default:
            return r.subtype !== undefined && IGNORED_SYSTEM.has(r.subtype) ? [] : unknown.once(`system:${r.subtype ?? ''}`, `system record "${r.subtype ?? ''}"`, { ...where, ...(known.version ? { version: known.version } : {}) });
        }
      default:
        return unknown.once(`type:${r.type}`, `record type "${r.type}"`, { ...where, ...(known.version ? { version: known.version } : {}) });
    }
  };

  return {
    sessionId: () => sessionId,
    start: () => [{ type: 'meta', ...ref, patch: { path: file, source: 'cli', resumeCommand: qwenResumeCommand(sessionId) } }],
    line: (bytes) => {
      const decoded = decodeLine(agent, qwenRecordSchema, bytes, where, TEXT_KEYS);
      if (!decoded.ok) return decoded.event ? [decoded.event] : [];
      const r = decoded.value;
      const at = epochMs(r.timestamp);
      // A sub-agent's model is not the session's.
      const patch = patchOf(r.isSidechain === true ? { ...r, model: undefined } : r, at);
      const events = [...(Object.keys(patch).length > 0 ? [{ type: 'meta', ...ref, at, patch } as const] : []), ...recordEvents(r, at)];
      const undated = undatedRecord(agent, r.timestamp, at, where);
      return undated.length > 0 ? [...undated, ...events] : events;
    },
  };
};
