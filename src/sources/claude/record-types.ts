/**
 * Record types Claude Code writes that carry nothing agentwatch shows; skipped before JSON.parse
 * (some are large). Every other type parse.ts does not handle is counted as unknown_record.
 */
export const IGNORED_TYPES = new Set([
  'file-history-snapshot',
  'progress',
  'queue-operation',
  'attachment',
  'last-prompt',
  'tag',
  // 2.1.x session bookkeeping (one payload key each, no timestamp).
  'permission-mode',
  'mode',
  'atis-latch',
  'agent-name',
  'pr-link',
  'frame-link',
  'relocated',
  'worktree-state',
  'cost-state',
  'continued-in',
  'content-replacement',
  'artifact-comment-monitor',
  'artifact-autoreact-ledger',
  // 2.1.2xx: Remote Control bridge and agent settings bookkeeping.
  'bridge-session',
  'agent-setting',
  // 2.1.118+: a fork sub-agent's pointer to the parent conversation it inherits, in place of copies
  // of it (its fields are reported differently by different readers; nothing here counts).
  'fork-context-ref',
  // 2.1.2xx: the edits of a turn to files it backed up (a delta of file-history-snapshot).
  'file-history-delta',
]);
/** `system` subtypes known to carry nothing more than their timestamp (the list is open-ended upstream). */
export const KNOWN_SYSTEM_SUBTYPES = new Set([
  'compact_boundary',
  'bridge_status',
  'local_command',
  'away_summary',
  'api_error',
  'informational',
  'scheduled_task_fire',
  'model_refusal_fallback',
  'stop_hook_summary',
  'turn_duration',
  'agents_killed',
  'task_started',
  'task_progress',
  'task_notification',
  'init',
]);
/** Content block types of user/assistant messages (the Messages API's, as Claude Code stores them). */
export const KNOWN_BLOCKS = new Set([
  'text',
  'thinking',
  'redacted_thinking',
  'tool_use',
  'tool_result',
  'image',
  'document',
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  // The advisor tool's answer: its tokens are billed apart, in usage.iterations (messages.ts).
  'advisor_tool_result',
]);
