import { z } from 'zod';

/**
 * zod shapes of the JSON in opencode/kilo `message.data` and `part.data` (AGENT-FORMATS §5.2).
 * Loose on purpose: unknown fields pass through, every field we read is optional, so newer agent
 * versions keep working; a value of the wrong type fails the record (a counted diagnostic).
 */
const count = z.number().nullish();
const times = z.object({ start: count, end: count, created: count, completed: count }).partial().nullish();

export const messageDataSchema = z.looseObject({
  role: z.string(),
  modelID: z.string().nullish(),
  providerID: z.string().nullish(),
  model: z.looseObject({ modelID: z.string().nullish(), providerID: z.string().nullish() }).nullish(),
  cost: count,
  tokens: z
    .looseObject({
      input: count,
      output: count,
      reasoning: count,
      cache: z.looseObject({ read: count, write: count }).nullish(),
    })
    .nullish(),
  finish: z.string().nullish(),
  time: times,
  /** `true` on the assistant message that holds a compaction summary; an object on user messages. */
  summary: z.unknown().optional(),
  error: z.looseObject({ name: z.string().nullish(), data: z.looseObject({ message: z.unknown() }).nullish() }).nullish(),
});
export type MessageData = z.infer<typeof messageDataSchema>;

export const partDataSchema = z.looseObject({
  type: z.string(),
  text: z.string().nullish(),
  synthetic: z.boolean().nullish(),
  tool: z.string().nullish(),
  callID: z.string().nullish(),
  state: z
    .looseObject({
      status: z.string().nullish(),
      input: z.record(z.string(), z.unknown()).nullish(),
      time: times,
    })
    .nullish(),
  time: times,
});
export type PartData = z.infer<typeof partDataSchema>;

/** kilo `session.model` column: `{"id":"grok-4.3","providerID":"xai"}`. */
export const sessionModelSchema = z.looseObject({ id: z.string() });
