import { z } from 'zod';
import { countSchema } from '../internal/counts.js';

/**
 * zod shapes of Cursor's `cursorDiskKV` values (docs/formats/cursor.md). Loose: unknown fields pass,
 * every field we read is optional except a bubble's `type`.
 */
const millis = z.number().nullish();
/** A token count (counts.ts): a refused one fails the bubble, a counted diagnostic. */
const tokens = countSchema.nullish();

const headerSchema = z.looseObject({ bubbleId: z.string(), type: z.number().nullish() });

export const composerSchema = z.looseObject({
  /** The composer document's own schema version (9 on 2025 builds); Cursor records no app version per chat. */
  _v: z.number().nullish().catch(undefined),
  composerId: z.string().nullish(),
  name: z.string().nullish(),
  createdAt: millis,
  lastUpdatedAt: millis,
  status: z.string().nullish(),
  modelConfig: z.looseObject({ modelName: z.string().nullish() }).nullish(),
  fullConversationHeadersOnly: z.array(headerSchema).nullish(),
  /** Older Cursor versions kept the bubbles inline here instead of in `bubbleId:` rows. */
  conversation: z.array(z.unknown()).nullish(),
});
export type Composer = z.infer<typeof composerSchema>;

export const bubbleSchema = z.looseObject({
  bubbleId: z.string().nullish(),
  /** 1 = user, 2 = assistant (text or tool). */
  type: z.number(),
  text: z.string().nullish(),
  createdAt: z.union([z.string(), z.number()]).nullish(),
  /** Composer `_v` 9 bubbles carry no createdAt; their real times are here (epoch ms). */
  timingInfo: z.looseObject({ clientStartTime: millis, clientEndTime: millis }).nullish(),
  workspaceUris: z.array(z.unknown()).nullish(),
  tokenCount: z.looseObject({ inputTokens: tokens, outputTokens: tokens }).nullish(),
  toolFormerData: z
    .looseObject({
      name: z.string().nullish(),
      status: z.string().nullish(),
      toolCallId: z.string().nullish(),
      rawArgs: z.unknown().optional(),
      params: z.unknown().optional(),
    })
    .nullish(),
});
export type Bubble = z.infer<typeof bubbleSchema>;
