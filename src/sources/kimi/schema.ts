import { z } from 'zod';

/**
 * Kimi Code `wire.jsonl` records (both encodings: the legacy import as `context.append_message`
 * with embedded tool calls, and the native loop events), `state.json` and `session_index.jsonl`.
 * Only the envelope's `type` is required; unknown types are valid records that carry nothing.
 * The wire objects strip the fields agentwatch does not read (zod's default) rather than copy them.
 */

const time = z.number().optional().catch(undefined);

export const kimiBlockSchema = z.object({ type: z.string(), text: z.string().optional() });
const content = z.union([z.string(), z.array(kimiBlockSchema)]).nullish().catch(undefined);

const legacyToolCall = z.object({
  id: z.string().optional(),
  function: z.object({ name: z.string(), arguments: z.unknown().optional() }),
});

export const kimiMessageSchema = z.object({
  role: z.string(),
  content,
  toolCalls: z.array(legacyToolCall).nullish().catch(undefined),
  toolCallId: z.string().nullish(),
});

export const kimiLoopEventSchema = z.object({
  type: z.string(),
  part: z.object({ type: z.string(), text: z.string().optional() }).nullish().catch(undefined),
  name: z.string().nullish(),
  args: z.unknown().optional(),
  toolCallId: z.string().nullish(),
  finishReason: z.string().nullish(),
});

const usageFigures = z.object({
  inputOther: z.number().catch(0).default(0),
  output: z.number().catch(0).default(0),
  inputCacheRead: z.number().catch(0).default(0),
  inputCacheCreation: z.number().catch(0).default(0),
});

/** The record types that carry something for agentwatch; every other type only moves the clock. */
export const KIMI_RECORD_TYPES = ['metadata', 'config.update', 'context.append_message', 'context.append_loop_event', 'usage.record', 'turn.end', 'turn.cancel'] as const;

export const kimiWireRecordSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('metadata'), protocol_version: z.string().optional(), app_version: z.string().optional(), created_at: time, time }),
  z.object({ type: z.literal('config.update'), modelAlias: z.string().optional(), time }),
  z.object({ type: z.literal('context.append_message'), message: kimiMessageSchema, time }),
  z.object({ type: z.literal('context.append_loop_event'), event: kimiLoopEventSchema, time }),
  z.object({ type: z.literal('usage.record'), model: z.string().optional(), usage: usageFigures, time }),
  z.object({ type: z.enum(['turn.end', 'turn.cancel']), time }),
]);
export type KimiWireRecord = z.infer<typeof kimiWireRecordSchema>;

// Compile-time check: KIMI_RECORD_TYPES and the union above name exactly the same record types.
type Missing = [Exclude<KimiWireRecord['type'], (typeof KIMI_RECORD_TYPES)[number]>, Exclude<(typeof KIMI_RECORD_TYPES)[number], KimiWireRecord['type']>];
const _sameTypes: Missing extends [never, never] ? true : never = true;

export const kimiStateSchema = z
  .object({ title: z.string().nullish().catch(undefined), isCustomTitle: z.boolean().nullish().catch(undefined) })
  .loose();

export const kimiIndexLineSchema = z
  .object({ sessionId: z.string().optional(), sessionDir: z.string().optional(), workDir: z.string().optional() })
  .loose();
