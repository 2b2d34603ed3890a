import { z } from 'zod';
import { countSchema } from '../internal/counts.js';

/** Qwen Code chat records (docs/formats/qwen.md). Tolerant of every field not read. */

const optionalString = z.string().optional().catch(undefined);
const count = countSchema.optional().catch(undefined);

const qwenPartSchema = z
  .object({
    text: optionalString,
    thought: z.boolean().optional().catch(undefined),
    functionCall: z.object({ id: optionalString, name: optionalString, args: z.record(z.string(), z.unknown()).optional().catch(undefined) }).loose().optional().catch(undefined),
    functionResponse: z.object({ id: optionalString }).loose().optional().catch(undefined),
  })
  .loose();

export const qwenRecordSchema = z
  .object({
    uuid: optionalString,
    timestamp: optionalString,
    type: z.string(),
    subtype: optionalString,
    cwd: optionalString,
    version: optionalString,
    gitBranch: optionalString,
    model: optionalString,
    provenance: optionalString,
    isSidechain: z.boolean().optional().catch(undefined),
    message: z.object({ role: optionalString, parts: z.array(qwenPartSchema).optional().catch(undefined) }).loose().optional().catch(undefined),
    usageMetadata: z
      .object({ promptTokenCount: count, candidatesTokenCount: count, cachedContentTokenCount: count, thoughtsTokenCount: count, toolUsePromptTokenCount: count })
      .loose()
      .optional()
      .catch(undefined),
    toolCallResult: z.object({ callId: optionalString, status: optionalString }).loose().optional().catch(undefined),
    systemPayload: z.record(z.string(), z.unknown()).optional().catch(undefined),
  })
  .loose();

export type QwenRecord = z.infer<typeof qwenRecordSchema>;
