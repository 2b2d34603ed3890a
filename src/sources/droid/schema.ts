import { z } from 'zod';
import { lenientCount } from '../internal/counts.js';

/** Droid transcript records and its per-session settings file (docs/formats/droid.md). Unknown record types are counted, not errors. */

const optionalString = z.string().optional();

const droidBlockSchema = z
  .object({
    type: z.string(),
    text: z.string().optional(),
    id: optionalString,
    name: optionalString,
    input: z.record(z.string(), z.unknown()).optional().catch(undefined),
    tool_use_id: optionalString,
    is_error: z.boolean().optional().catch(undefined),
  })
  .loose();

export const droidMessageSchema = z.object({
  role: z.string(),
  content: z.union([z.string(), z.array(droidBlockSchema)]).optional(),
  model: optionalString,
});

export const droidRecordSchema = z.object({
  type: z.string(),
  id: optionalString,
  timestamp: optionalString,
  /** `session_start`: the working directory, titles, the format version, the calling session of a sub-agent's. */
  cwd: optionalString,
  title: optionalString,
  sessionTitle: optionalString,
  version: z.union([z.number(), z.string()]).optional().catch(undefined),
  callingSessionId: optionalString,
  message: z.unknown().optional(),
});

const count = lenientCount;

/** `<id>.settings.json`: rewritten in place; `tokenUsage` holds the session's running totals. */
export const droidSettingsSchema = z.object({
  model: optionalString.catch(undefined),
  tokenUsage: z
    .object({
      inputTokens: count,
      outputTokens: count,
      cacheCreationTokens: count,
      cacheReadTokens: count,
      thinkingTokens: count,
    })
    .optional()
    .catch(undefined),
});

export type DroidBlock = z.infer<typeof droidBlockSchema>;
