import { z } from 'zod';
import { amount, messageTokensSchema } from './schema.js';

/**
 * zod shapes of the JSON in OpenCode 2.x `session_message.data` (map-v2.ts says where from). The row's
 * `type` column says what the message is (`user`, `assistant`, `shell`, `compaction`...); `data`
 * is the rest of the message without its `type` and `id`. Every field we read is optional and
 * unknown fields are dropped, as for the 1.x shapes (schema.ts): the 2.x message schema moved
 * between releases (a compaction's `recent`/`include`, an error as a string or an object).
 */

/**
 * An instant: epoch milliseconds as 2.x encodes `DateTimeUtcFromMillis`; an ISO string (what an
 * early 2.0 beta's `DateTimeUtc` encoded) is read too. Anything else reads as not recorded.
 */
const instant = z.unknown().transform((value): number | undefined => {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'string') return undefined;
  const parsed = Date.parse(value);
  return Number.isFinite(parsed) ? parsed : undefined;
});
const times = z.object({ created: instant, ran: instant, completed: instant }).partial().nullish();

/** `user`: what the person typed (`text`), with files and references beside it. */
export const v2UserSchema = z.object({ text: z.unknown().optional(), time: times });

/** `synthetic`: a message OpenCode adds to the conversation itself (a continuation, a sub-agent's result). */
export const v2SyntheticSchema = z.object({ time: times });

/** One item of an assistant message's `content`: `text`, `reasoning` or `tool`. */
export const v2ContentSchema = z.object({
  type: z.string(),
  id: z.string().nullish(),
  text: z.string().nullish(),
  ignored: z.boolean().nullish(),
  synthetic: z.boolean().nullish(),
  name: z.string().nullish(),
  state: z
    .object({
      status: z.string().nullish(),
      // A record once the call runs; the raw argument text while it is still pending.
      input: z.unknown().optional(),
    })
    .nullish(),
  time: times,
});

/**
 * A model reference: `{ id, providerID, variant? }` in 2.x; a bare id, or 1.x's `modelID`, read
 * too. Anything else reads as not recorded (the message itself is still read).
 */
const modelRef = z.unknown().transform((value): string | undefined => {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value !== 'object' || value === null) return undefined;
  const { id, modelID } = value as { id?: unknown; modelID?: unknown };
  if (typeof id === 'string' && id !== '') return id;
  return typeof modelID === 'string' && modelID !== '' ? modelID : undefined;
});

export const v2AssistantSchema = z.object({
  model: modelRef.optional(),
  content: z.array(z.unknown()).nullish(),
  finish: z.string().nullish(),
  cost: amount,
  tokens: messageTokensSchema,
  /** A string in early 2.0 releases, an object with a `message` later. */
  error: z.unknown().optional(),
  time: times,
});
export type V2Assistant = z.infer<typeof v2AssistantSchema>;

/** `shell`: a command the person ran from the prompt (`!cmd`). */
export const v2ShellSchema = z.object({ callID: z.string().nullish(), command: z.string().nullish(), status: z.string().nullish(), time: times });

/** `compaction`: written when a compaction starts (summary still empty), completed in place. */
export const v2CompactionSchema = z.object({ summary: z.string().nullish(), status: z.string().nullish(), time: times });

export const v2ModelSwitchedSchema = z.object({ model: modelRef.optional(), time: times });
