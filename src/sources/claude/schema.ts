import { z } from 'zod';
import { timeSchema } from '../internal/times.js';
import { countSchema } from '../internal/counts.js';

/**
 * The parts of a Claude Code transcript record agentwatch reads (docs/formats/claude.md). Unknown
 * keys are dropped; big payloads (tool output, images) are typed `unknown` so they are never walked.
 */

const optionalString = z.string().optional();
const count = countSchema.optional();

const claudeUsageSchema = z.object({
  input_tokens: count,
  output_tokens: count,
  cache_creation_input_tokens: count,
  cache_read_input_tokens: count,
  /**
   * The API calls of one turn (2026+). An `advisor_message` entry is a call to the advisor model
   * (`/advisor`), billed on its own and left out of the counters above; the other entries are in
   * them. Read defensively by the parser (advisorUsages); any shape is accepted here.
   */
  iterations: z.unknown().optional(),
  /**
   * The split of `cache_creation_input_tokens` by how long the cache is kept
   * (`ephemeral_5m_input_tokens`, `ephemeral_1h_input_tokens`), billed at two rates. Read
   * defensively by the parser (hourWrites); any shape is accepted here.
   */
  cache_creation: z.unknown().optional(),
});

const claudeBlockSchema = z.object({
  type: z.string(),
  text: z.string().optional(),
  id: optionalString,
  name: optionalString,
  input: z.record(z.string(), z.unknown()).optional(),
  tool_use_id: optionalString,
  is_error: z.boolean().optional(),
  content: z.unknown().optional(),
});

const claudeMessageSchema = z.object({
  role: optionalString,
  id: optionalString,
  model: optionalString,
  content: z.union([z.string(), z.array(claudeBlockSchema)]).optional(),
  usage: claudeUsageSchema.optional(),
});

export const claudeRecordSchema = z.object({
  type: z.string(),
  subtype: optionalString,
  timestamp: optionalString,
  sessionId: optionalString,
  cwd: optionalString,
  version: optionalString,
  gitBranch: optionalString,
  isSidechain: z.boolean().optional(),
  isMeta: z.boolean().optional(),
  isCompactSummary: z.boolean().optional(),
  /** 2.1.x: who wrote a user record (`typed`, `sdk`, `system`); `system` is Claude Code's own. */
  promptSource: z.string().optional().catch(undefined),
  /** 2.1.x: who a user record is from (`human`, `tool`, `task-notification`, `peer`...), where the version writes it. */
  origin: z.looseObject({ kind: z.string().optional() }).optional().catch(undefined),
  /** How Claude Code was started: `cli`, `sdk-cli`, `claude-vscode`, `claude-desktop`... */
  entrypoint: z.string().optional().catch(undefined),
  /**
   * On every line `/branch` (and the SDK's forkSession) copied from the session it branched from:
   * `{ sessionId, messageUuid }` of the original. Lines written since carry none.
   */
  forkedFrom: z.unknown().optional(),
  /** 2.1.x: `bg` on every line a background session writes, the copies it starts with included (continuation.ts). */
  sessionKind: z.string().optional().catch(undefined),
  costUSD: count,
  customTitle: optionalString,
  /** `ai-title` (2.1.x): the generated title. */
  aiTitle: optionalString,
  summary: optionalString,
  /** `summary` records: the message the summary ends at (often in another session's file). */
  leafUuid: optionalString,
  uuid: optionalString,
  /** The message this one follows; null on a conversation's first, and on an inline sub-agent run's first prompt (1.0.x). */
  parentUuid: z.string().nullable().optional().catch(undefined),
  message: claudeMessageSchema.optional(),
});

export type ClaudeRecord = z.infer<typeof claudeRecordSchema>;
export type ClaudeBlock = z.infer<typeof claudeBlockSchema>;

/** Claude Desktop's per-session sidecar (`local_*.json`, macOS; docs/formats/claude.md). */
export const claudeDesktopSidecarSchema = z.object({
  cliSessionId: z.string().min(1),
  title: optionalString,
  cwd: optionalString,
  model: optionalString,
  // Out of `Date`'s range (times.ts): no creation time, the sidecar's title still counts.
  createdAt: timeSchema.optional().catch(undefined),
});
