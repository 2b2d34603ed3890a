import { z } from 'zod';
import { countSchema } from '../internal/counts.js';

/**
 * Gemini CLI chat rows (docs/formats/gemini.md). One line is one of: the header (`sessionId`,
 * `projectHash`...), a message (`id`, `type`, `timestamp`), a `$set` of header fields or a
 * `$rewindTo`. Every field is optional here: which kind a line is, parse.ts tells by its keys.
 */

const optionalString = z.string().optional().catch(undefined);
const count = countSchema.optional();

/** `content` is a string, one part or a list of strings and parts; only text parts are read. */
const geminiContentSchema = z.unknown();

const geminiToolCallSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    args: z.record(z.string(), z.unknown()).optional().catch(undefined),
    /** `success`, `error`, `cancelled` once finished (Gemini CLI writes a call when it is). */
    status: optionalString,
    timestamp: optionalString,
  })
  .loose();

const geminiTokensSchema = z.object({
  input: count,
  output: count,
  cached: count,
  thoughts: count,
  tool: count,
  total: count,
});

export const geminiRowSchema = z
  .object({
    // The header
    sessionId: optionalString,
    projectHash: optionalString,
    startTime: optionalString,
    kind: optionalString,
    // A message
    id: optionalString,
    type: optionalString,
    timestamp: optionalString,
    content: geminiContentSchema.optional(),
    model: optionalString,
    toolCalls: z.array(geminiToolCallSchema).optional().catch(undefined),
    tokens: geminiTokensSchema.nullish().catch(undefined),
    // Updates
    $set: z.record(z.string(), z.unknown()).optional().catch(undefined),
    $rewindTo: optionalString,
  })
  .loose();

export type GeminiRow = z.infer<typeof geminiRowSchema>;
export type GeminiToolCall = z.infer<typeof geminiToolCallSchema>;
export type GeminiTokens = z.infer<typeof geminiTokensSchema>;
