import { z } from 'zod';

/**
 * Grok CLI session files: `summary.json` (metadata, rewritten) and `chat_history.jsonl` (the
 * model-facing transcript, appended, no timestamps). Objects are `.loose()`: Grok adds fields.
 */

const timestamp = z.string().nullish().catch(undefined);

export const grokSummarySchema = z
  .object({
    info: z.object({ id: z.string().optional(), cwd: z.string().optional() }).loose().optional().catch(undefined),
    session_summary: z.string().nullish().catch(undefined),
    generated_title: z.string().nullish().catch(undefined),
    created_at: timestamp,
    updated_at: timestamp,
    last_active_at: timestamp,
    current_model_id: z.string().nullish().catch(undefined),
    head_branch: z.string().nullish().catch(undefined),
    chat_format_version: z.number().nullish().catch(undefined),
    session_kind: z.string().nullish().catch(undefined),
    /** A fork's parent (its `updates.jsonl` starts with a copy of the parent's). */
    parent_session_id: z.string().nullish().catch(undefined),
  })
  .loose();
export type GrokSummary = z.infer<typeof grokSummarySchema>;

// The chat line objects strip the fields agentwatch does not read (zod's default) rather than copy them.
const textPart = z.object({ type: z.string(), text: z.string().optional() });

const userLine = z.object({
  type: z.literal('user'),
  content: z.union([z.string(), z.array(textPart)]),
  /** Set on entries Grok injects itself (`system_reminder`, `skills`, `task_completed`, `compaction_meta`). */
  synthetic_reason: z.string().nullish().catch(undefined),
});
const assistantLine = z.object({
  type: z.literal('assistant'),
  content: z.string().nullish(),
  tool_calls: z
    .array(z.object({ id: z.string().optional(), name: z.string(), arguments: z.unknown().optional() }))
    .nullish(),
  model_id: z.string().nullish(),
});
const toolResultLine = z.object({ type: z.literal('tool_result'), tool_call_id: z.string().nullish(), content: z.unknown().optional() });
/** `system` prompts, `reasoning` markers and `backend_tool_call`s (server-side search): valid records that carry no turn. */
const silentLine = z.object({ type: z.enum(['system', 'reasoning', 'backend_tool_call']) });

export const grokChatLineSchema = z.discriminatedUnion('type', [userLine, assistantLine, toolResultLine, silentLine]);
export type GrokChatLine = z.infer<typeof grokChatLineSchema>;
