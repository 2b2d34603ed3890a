import { z } from 'zod';
import { countSchema } from '../internal/counts.js';

/** pi session entries (docs/formats/pi.md). Unknown entry types are counted (unknown_record), not errors. */

const optionalString = z.string().optional();
const count = countSchema.optional();

const piBlockSchema = z
  .object({
    type: z.string(),
    text: z.string().optional(),
    id: optionalString,
    name: optionalString,
    arguments: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();

const piUsageSchema = z.object({
  input: count,
  output: count,
  cacheRead: count,
  cacheWrite: count,
  cost: z.object({ total: count }).optional(),
});

export const piMessageSchema = z.object({
  role: z.string(),
  content: z.union([z.string(), z.array(piBlockSchema)]).optional(),
  model: optionalString,
  usage: piUsageSchema.optional(),
  toolCallId: optionalString,
  isError: z.boolean().optional(),
});

export const piEntrySchema = z.object({
  type: z.string(),
  id: optionalString,
  timestamp: optionalString,
  cwd: optionalString,
  modelId: optionalString,
  name: optionalString,
  /** Oh My Pi: the title slot line (`title`, before the header), `title_change` entries, the header's own title. */
  title: optionalString,
  parentSession: optionalString,
  /** Header only: the session file format (3 current; absent in format 1). */
  version: z.number().optional().catch(undefined),
  message: z.unknown().optional(),
  /** `compaction` and `branch_summary` entries (pi 0.8x): what generating the summary cost. */
  usage: piUsageSchema.optional().catch(undefined),
});

export type PiEntry = z.infer<typeof piEntrySchema>;
export type PiBlock = z.infer<typeof piBlockSchema>;
export type PiUsage = z.infer<typeof piUsageSchema>;
