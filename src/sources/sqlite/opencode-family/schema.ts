import { z } from 'zod';
import { countSchema } from '../../internal/counts.js';

/**
 * zod shapes of the JSON in opencode/kilo `message.data` and `part.data` (docs/formats/opencode.md).
 * Every field we read is optional, so newer agent versions keep working; unknown fields are
 * dropped (zod's default: passing them through copied every key of every row on each replay);
 * a value of the wrong type fails the record (a counted diagnostic).
 */
const instant = z.number().nullish();
const times = z.object({ start: instant, end: instant, created: instant, completed: instant }).partial().nullish();

/** A token count or a cost (counts.ts): a refused one fails the record, a counted diagnostic. */
export const amount = countSchema.nullish();

/** A message's token counts: the same object in 1.x `message.data` and 2.x `session_message.data`. */
export const messageTokensSchema = z
  .object({
    input: amount,
    output: amount,
    reasoning: amount,
    cache: z.object({ read: amount, write: amount }).nullish(),
  })
  .nullish();
export type MessageTokens = z.infer<typeof messageTokensSchema>;

export const messageDataSchema = z.object({
  role: z.string(),
  modelID: z.string().nullish(),
  providerID: z.string().nullish(),
  model: z.object({ modelID: z.string().nullish(), providerID: z.string().nullish() }).nullish(),
  cost: amount,
  tokens: messageTokensSchema,
  finish: z.string().nullish(),
  time: times,
  /** `true` on the assistant message that holds a compaction summary; an object on user messages. */
  summary: z.unknown().optional(),
  error: z.object({ name: z.string().nullish(), data: z.object({ message: z.unknown() }).nullish() }).nullish(),
});
export type MessageData = z.infer<typeof messageDataSchema>;

export const partDataSchema = z.object({
  type: z.string(),
  text: z.string().nullish(),
  synthetic: z.boolean().nullish(),
  tool: z.string().nullish(),
  callID: z.string().nullish(),
  state: z
    .object({
      status: z.string().nullish(),
      // An object (an array or a scalar fails the part); only the keys `writtenFile` reads are kept.
      input: z
        .object({ filePath: z.unknown(), file_path: z.unknown(), path: z.unknown(), patchText: z.unknown(), patch: z.unknown() })
        .partial()
        .nullish(),
      time: times,
    })
    .nullish(),
  time: times,
});
export type PartData = z.infer<typeof partDataSchema>;

/** kilo `session.model` column: `{"id":"grok-4.3","providerID":"xai"}`. */
export const sessionModelSchema = z.looseObject({ id: z.string() });
