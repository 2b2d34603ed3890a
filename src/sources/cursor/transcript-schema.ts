import { z } from 'zod';

/** Cursor Agent transcript lines (docs/formats/cursor.md): messages, and `turn_ended` markers. */

const blockSchema = z
  .object({
    type: z.string(),
    text: z.string().optional(),
    name: z.string().optional(),
    input: z.record(z.string(), z.unknown()).optional().catch(undefined),
  })
  .loose();

export const cursorTranscriptLineSchema = z.object({
  role: z.string().optional(),
  type: z.string().optional(),
  status: z.string().optional(),
  message: z.object({ content: z.union([z.string(), z.array(blockSchema)]).optional() }).optional().catch(undefined),
});

export type CursorTranscriptBlock = z.infer<typeof blockSchema>;
