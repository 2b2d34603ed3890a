// The Copilot CLI event log this parser was checked against: docs/formats/copilot.md.
import { addTokens, type SessionEvent, type SessionMetaPatch, type SessionState, type TokenCounts } from '../../core/session.js';
import type { FileParser } from '../internal/file-parser.js';
import { decodeLine, epochMs, undatedRecord } from '../internal/line-helpers.js';
import { skimType, valueKey } from '../internal/skim.js';
import { createUnknownRecords } from '../internal/unknown-records.js';
import { copilotResumeCommand } from './descriptor.js';
import {
  copilotContextSchema,
  copilotEnvelopeSchema,
  copilotMessageSchema,
  copilotShutdownSchema,
  copilotStartSchema,
  copilotToolCompleteSchema,
  copilotToolStartSchema,
} from './schema.js';

const agent = 'copilot';
const TEXT_KEYS = [valueKey('content')];

/**
 * Event types written to the log that carry nothing agentwatch shows (settings, plans, hooks,
 * notices, sub-agent bookkeeping, billing checkpoints); others are unknown_record.
 */
const IGNORED_TYPES = new Set([
  'session.info',
  'session.warning',
  'session.error',
  'session.idle',
  'session.mode_changed',
  'session.plan_changed',
  'session.todos_changed',
  'session.workspace_file_changed',
  'session.handoff',
  'session.truncation',
  'session.snapshot_rewind',
  'session.usage_checkpoint',
  'session.usage_info',
  'session.context_cleared',
  'session.task_complete',
  'session.remote_steerable_changed',
  'session.schedule_created',
  'session.schedule_cancelled',
  'session.schedule_rearmed',
  'session.autopilot_objective_changed',
  'session.session_limits_changed',
  'session.permissions_changed',
  'session.binary_asset',
  'session.auto_mode_resolved',
  'session.canvas.recorded',
  'session.canvas.removed',
  'assistant.turn_end',
  'assistant.reasoning',
  'assistant.intent',
  'abort',
  'hook.start',
  'hook.end',
  'skill.invoked',
  'subagent.started',
  'subagent.completed',
  'subagent.failed',
  'subagent.selected',
  'subagent.deselected',
  'tool.user_requested',
  'tool_search.activated',
  'system.message',
  'system.notification',
  'permission.completed',
  'external_tool.requested',
  'external_tool.completed',
  'pending_messages.modified',
]);
/** Tools whose `path` argument is a file the agent wrote. */
const WRITE_TOOLS = new Set(['edit', 'create', 'write', 'str_replace_editor', 'apply_patch']);

/** A model's usage as Copilot counts it: cache reads and writes are part of the input. */
const copilotTokens = (u: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number }): TokenCounts => {
  const cacheRead = Math.min(u.cacheReadTokens, u.inputTokens);
  const cacheCreation = Math.min(u.cacheWriteTokens, u.inputTokens - cacheRead);
  return { input: u.inputTokens - cacheRead - cacheCreation, output: u.outputTokens, cacheCreation, cacheRead };
};

/**
 * The line parser of one Copilot CLI session's `events.jsonl` (docs/formats/copilot.md): the
 * session's folder and branch from its start and context changes; prompts, answers, tool runs
 * and compactions; a permission prompt waits for the user; the usage each run of the CLI records
 * when it ends (`session.shutdown`). The events of a sub-agent run inside the session (`agentId`)
 * are the parent's spawning tool, not turns of their own.
 */
export const createCopilotParser = (file: string, sessionId: string, resumed: boolean, restored?: SessionState): FileParser => {
  const ref = { agent, sessionId } as const;
  const where = { sessionId, path: file };
  let model = resumed ? restored?.model : undefined;
  let version: string | undefined = resumed ? restored?.version : undefined;
  const unknown = createUnknownRecords(agent, 'Copilot CLI');
  const meta = (patch: SessionMetaPatch, at: number): SessionEvent[] => (Object.keys(patch).length > 0 ? [{ type: 'meta', ...ref, at, patch }] : []);
  const modelPatch = (next: string | undefined): SessionMetaPatch => (next && next !== model ? { model: (model = next) } : {});
  const contextPatch = (raw: unknown): SessionMetaPatch => {
    const ctx = copilotContextSchema.safeParse(raw);
    if (!ctx.success) return {};
    return { ...(ctx.data.cwd ? { cwd: ctx.data.cwd } : {}), ...(ctx.data.branch ? { gitBranch: ctx.data.branch } : {}) };
  };

  const eventsOf = (type: string, data: Record<string, unknown>, at: number, sub: boolean): SessionEvent[] => {
    switch (type) {
      case 'session.start': {
        const start = copilotStartSchema.safeParse(data);
        if (!start.success) return [];
        version = start.data.copilotVersion ?? version;
        const createdAt = epochMs(start.data.startTime) || at;
        return meta({ ...contextPatch(start.data.context), ...modelPatch(start.data.selectedModel), ...(version ? { version } : {}), ...(createdAt ? { createdAt } : {}) }, at);
      }
      case 'session.resume':
        return meta({ ...contextPatch(data.context), ...modelPatch(typeof data.selectedModel === 'string' ? data.selectedModel : undefined) }, at);
      case 'session.context_changed':
        return meta(contextPatch(data), at);
      case 'session.model_change':
        return meta(modelPatch(typeof data.newModel === 'string' ? data.newModel : undefined), at);
      case 'session.title_changed':
        return typeof data.title === 'string' && data.title.trim() !== '' ? meta({ agentName: data.title.trim() }, at) : [];
      case 'user.message':
        if (sub) return [];
        return [{ type: 'turn', ...ref, at, role: 'user', text: typeof data.content === 'string' ? data.content : '' }];
      case 'assistant.turn_start':
        return sub ? [] : [{ type: 'thinking', ...ref, at }];
      case 'assistant.message': {
        const message = copilotMessageSchema.safeParse(data);
        if (!message.success || sub || message.data.parentToolCallId) return [];
        const text = message.data.content ?? '';
        // A message of tool requests alone: the tools' start events follow.
        return [...meta(modelPatch(message.data.model), at), ...(text.trim() !== '' ? [{ type: 'turn', ...ref, at, role: 'assistant', text } as const] : [])];
      }
      case 'tool.execution_start': {
        const call = copilotToolStartSchema.safeParse(data);
        if (!call.success || sub) return [];
        const args = call.data.arguments as { path?: unknown } | undefined;
        const target = WRITE_TOOLS.has(call.data.toolName) && typeof args?.path === 'string' ? args.path : undefined;
        return [{ type: 'tool_call', ...ref, at, name: call.data.toolName, callId: call.data.toolCallId, filePath: target }];
      }
      case 'tool.execution_complete': {
        const done = copilotToolCompleteSchema.safeParse(data);
        if (!done.success || sub) return [];
        return [{ type: 'tool_result', ...ref, at, callId: done.data.toolCallId, isError: done.data.success === false }];
      }
      case 'permission.requested':
        // Settled by a hook it asks nobody; otherwise the session waits for the user's answer.
        return sub || data.resolvedByHook === true ? [] : [{ type: 'turn', ...ref, at, role: 'assistant', text: '', counts: false }];
      case 'session.compaction_start':
        return [{ type: 'compaction', ...ref, at, phase: 'start' }];
      case 'session.compaction_complete':
        return [{ type: 'compaction', ...ref, at, phase: 'end' }];
      case 'session.shutdown': {
        const end = copilotShutdownSchema.safeParse(data);
        if (!end.success) return [];
        const tokens = Object.values(end.data.modelMetrics ?? {}).reduce<TokenCounts>((total, metric) => (metric?.usage ? addTokens(total, copilotTokens(metric.usage)) : total), { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 });
        // One run of the CLI: a later shutdown of the same run replaces its usage, another run's adds up.
        return [...meta(modelPatch(end.data.currentModel), at), { type: 'usage', ...ref, at, messageId: `run:${end.data.sessionStartTime ?? at}`, tokens }];
      }
      default:
        return IGNORED_TYPES.has(type) ? [] : unknown.once(type, `event type "${type}"`, { ...where, ...(version ? { version } : {}) });
    }
  };

  return {
    sessionId: () => sessionId,
    start: () => [{ type: 'meta', ...ref, patch: { path: file, source: 'cli', resumeCommand: copilotResumeCommand(sessionId) } }],
    line: (bytes) => {
      // Streaming deltas are marked ephemeral and never written; skipped unparsed if they are.
      const type = skimType(bytes)?.value;
      if (type !== undefined && type.endsWith('_delta')) return [];
      const decoded = decodeLine(agent, copilotEnvelopeSchema, bytes, where, TEXT_KEYS);
      if (!decoded.ok) return decoded.event ? [decoded.event] : [];
      const { type: kind, timestamp, agentId, data } = decoded.value;
      const at = epochMs(timestamp);
      const events = eventsOf(kind, data ?? {}, at, agentId !== undefined && agentId !== '');
      const undated = undatedRecord(agent, timestamp, at, where);
      return undated.length > 0 ? [...undated, ...events] : events;
    },
  };
};
