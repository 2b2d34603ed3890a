import { z } from 'zod';
import { countSchema } from '../internal/counts.js';

/**
 * Copilot CLI event log lines (docs/formats/copilot.md): an envelope `{type, id, timestamp,
 * parentId, agentId?, data}` whose `data` depends on `type`. Tolerant of every field not read.
 */

const optionalString = z.string().optional().catch(undefined);

export const copilotEnvelopeSchema = z.object({
  type: z.string(),
  timestamp: optionalString,
  /** Set on the events of a sub-agent run inside the session. */
  agentId: optionalString,
  data: z.record(z.string(), z.unknown()).optional().catch(undefined),
});

export const copilotContextSchema = z.object({ cwd: optionalString, branch: optionalString }).loose();

export const copilotStartSchema = z.object({
  sessionId: optionalString,
  copilotVersion: optionalString,
  startTime: optionalString,
  selectedModel: optionalString,
  context: copilotContextSchema.optional().catch(undefined),
});

export const copilotMessageSchema = z.object({
  content: z.string().optional().catch(undefined),
  model: optionalString,
  parentToolCallId: optionalString,
});

export const copilotToolStartSchema = z.object({
  toolCallId: z.string(),
  toolName: z.string(),
  arguments: z.unknown().optional(),
});

export const copilotToolCompleteSchema = z.object({
  toolCallId: z.string(),
  success: z.boolean().optional().catch(undefined),
});

const count = countSchema.catch(0).default(0);

const copilotModelMetricSchema = z.object({
  usage: z.object({ inputTokens: count, outputTokens: count, cacheReadTokens: count, cacheWriteTokens: count, reasoningTokens: count }).optional().catch(undefined),
});

export const copilotShutdownSchema = z.object({
  sessionStartTime: z.number().optional().catch(undefined),
  currentModel: optionalString,
  modelMetrics: z.record(z.string(), copilotModelMetricSchema.catch({ usage: undefined })).optional().catch(undefined),
});
