import { z } from 'zod';
import { timeSchema } from '../internal/times.js';
import { lenientCount } from '../internal/counts.js';

/**
 * Kimi Code `wire.jsonl` records (both encodings: the legacy import as `context.append_message`
 * with embedded tool calls, and the native loop events), `state.json` and `session_index.jsonl`.
 * Only the envelope's `type` is required; unknown types are valid records that carry nothing.
 * The wire objects strip the fields agentwatch does not read (zod's default) rather than copy them.
 */

const time = timeSchema.optional().catch(undefined);

const kimiBlockSchema = z.object({ type: z.string(), text: z.string().optional() });
const content = z.union([z.string(), z.array(kimiBlockSchema)]).nullish().catch(undefined);

/**
 * A tool call embedded in a message: wire 1.0 nests it (`function: {name, arguments}`), wire 1.1+
 * writes it flat (`{type: "function", id, name, arguments}`). Both are read; `name` is the one
 * found in either place.
 */
const embeddedToolCall = z
  .object({
    id: z.string().optional(),
    name: z.string().optional(),
    arguments: z.unknown().optional(),
    function: z.object({ name: z.string().optional(), arguments: z.unknown().optional() }).optional().catch(undefined),
  })
  .transform((call) => ({ id: call.id, function: { name: call.function?.name ?? call.name ?? '', arguments: call.function?.arguments ?? call.arguments } }));

const kimiMessageSchema = z.object({
  role: z.string(),
  content,
  toolCalls: z.array(embeddedToolCall).nullish().catch(undefined),
  toolCallId: z.string().nullish(),
  /**
   * Who wrote the message: `user` for what the person typed; `injection` for what Kimi Code adds
   * in the user's role itself (system reminders, a command's output, tool schemas).
   */
  origin: z.object({ kind: z.string().nullish() }).nullish().catch(undefined),
});

const kimiLoopEventSchema = z.object({
  type: z.string(),
  part: z.object({ type: z.string(), text: z.string().optional() }).nullish().catch(undefined),
  name: z.string().nullish(),
  args: z.unknown().optional(),
  toolCallId: z.string().nullish(),
  finishReason: z.string().nullish(),
});

// A refused count (counts.ts) reads as 0.
const tokenCount = lenientCount;
const usageFigures = z.object({
  inputOther: tokenCount,
  output: tokenCount,
  inputCacheRead: tokenCount,
  inputCacheCreation: tokenCount,
});

/** The record types that carry something for agentwatch (see KIMI_IGNORED_TYPES for the rest). */
export const KIMI_RECORD_TYPES = [
  'metadata',
  'config.update',
  'profile.bind',
  'context.append_message',
  'context.append_loop_event',
  'usage.record',
  'turn.end',
  'turn.ended',
  'turn.cancel',
  'full_compaction.begin',
  'full_compaction.complete',
  'full_compaction.cancel',
  'context.apply_compaction',
] as const;

/**
 * Record types Kimi Code writes (wire protocol 1.0-1.5, agent-core and agent-core-v2) that carry
 * nothing agentwatch shows: they only move the clock. Any type in neither list is counted as
 * unknown_record (a newer wire).
 */
export const KIMI_IGNORED_TYPES: ReadonlySet<string> = new Set([
  'turn.prompt',
  'turn.steer',
  'turn.step.interrupted',
  'turn.step.retrying',
  'runtime.set_binding',
  'permission.set_mode',
  'permission.record_approval_result',
  'permission.approval.requested',
  'plan_mode.enter',
  'plan_mode.cancel',
  'plan_mode.exit',
  'plan.revision',
  'swarm_mode.enter',
  'swarm_mode.exit',
  'tower_mode.enter',
  'tower_mode.exit',
  'tools.register_user_tool',
  'tools.unregister_user_tool',
  'tools.set_active_tools',
  'tools.reset_active_tools',
  'tools.update_store',
  'micro_compaction.apply',
  'context.update_token_count',
  'context.clear',
  'context.undo',
  'context.spliced',
  'goal.create',
  'goal.update',
  'goal.clear',
  'goal.account_usage',
  'goal.continuation',
  'forked',
  'cron.add',
  'cron.cursor',
  'cron.delete',
  'file_history.checkpoint',
  'file_history.tracked',
  'interaction.request',
  'interaction.resolved',
  'interruptionReminder.recorded',
  'llm.request',
  'llm.tools_snapshot',
  'mcp.tools_discovered',
  'mcp.server.status',
  'plugin.session_start',
  'plugin_command.activated',
  'prompt.accepted',
  'prompt.completed',
  'prompt.aborted',
  'prompt.steered',
  'session.meta.updated',
  'shell.output',
  'staleGuard.recorded',
  'staleGuard.cleared',
  'subagent.suspended',
  'task.started',
  'task.terminated',
  'task.waitDelivered',
  'token_counting.measured',
  'token_counting.rebased',
  'token_counting.truncated',
  'token_counting.turn_recorded',
]);

/** Loop event types (inside `context.append_loop_event`) agentwatch knows; others are unknown_record. */
export const KIMI_LOOP_EVENTS: ReadonlySet<string> = new Set(['step.begin', 'step.end', 'content.part', 'tool.call', 'tool.result', 'compaction.begin', 'compaction.end']);

export const kimiWireRecordSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('metadata'), protocol_version: z.string().optional(), app_version: z.string().optional(), created_at: time, time }),
  z.object({ type: z.literal('config.update'), modelAlias: z.string().optional(), cwd: z.string().optional().catch(undefined), time }),
  // agent-core-v2 (the CLI's default engine) binds each agent to its profile when it starts: the
  // model is named here; `config.update` follows only when something changes (a /model switch).
  z.object({
    type: z.literal('profile.bind'),
    modelAlias: z.string().optional().catch(undefined),
    environmentDisclosure: z.object({ cwd: z.string().optional().catch(undefined) }).nullish().catch(undefined),
    time,
  }),
  z.object({ type: z.literal('context.append_message'), message: kimiMessageSchema, time }),
  z.object({ type: z.literal('context.append_loop_event'), event: kimiLoopEventSchema, time }),
  // `usageScope`: "turn" for one step's usage; a "session" record repeats the running total.
  z.object({ type: z.literal('usage.record'), model: z.string().optional(), usage: usageFigures, usageScope: z.string().optional().catch(undefined), time }),
  z.object({
    type: z.enum(['turn.end', 'turn.ended', 'turn.cancel', 'full_compaction.begin', 'full_compaction.complete', 'full_compaction.cancel', 'context.apply_compaction']),
    time,
  }),
]);
export type KimiWireRecord = z.infer<typeof kimiWireRecordSchema>;

// Compile-time check: KIMI_RECORD_TYPES and the union above name exactly the same record types.
type Missing = [Exclude<KimiWireRecord['type'], (typeof KIMI_RECORD_TYPES)[number]>, Exclude<(typeof KIMI_RECORD_TYPES)[number], KimiWireRecord['type']>];
const _sameTypes: Missing extends [never, never] ? true : never = true;

export const kimiStateSchema = z
  .object({
    title: z.string().nullish().catch(undefined),
    isCustomTitle: z.boolean().nullish().catch(undefined),
    /** state.json version 2 stores the session's cwd itself (releases up to 0.29 as `workDir`). */
    cwd: z.string().nullish().catch(undefined),
    workDir: z.string().nullish().catch(undefined),
  })
  .loose();

export const kimiIndexLineSchema = z
  .object({ sessionId: z.string().optional(), sessionDir: z.string().optional(), workDir: z.string().optional() })
  .loose();
