import { z } from 'zod';

/** A Kimi CLI `wire.jsonl` line (docs/formats/kimi.md): the `metadata` header or a timed wire message envelope. */
export const kimiLegacyLineSchema = z.object({
  type: z.string().optional(),
  protocol_version: z.string().optional().catch(undefined),
  timestamp: z.number().optional().catch(undefined),
  message: z.object({ type: z.string(), payload: z.record(z.string(), z.unknown()).nullish() }).optional(),
});
