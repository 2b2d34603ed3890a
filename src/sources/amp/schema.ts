import { z } from 'zod';
import { timeSchema } from '../internal/times.js';
import { lenientCount } from '../internal/counts.js';

/** A time field: one outside `Date`'s range (times.ts) reads as absent. */
const time = timeSchema.optional().catch(undefined);
/** A token counter (counts.ts): a refused one reads as 0. */
const tokens = lenientCount;

/**
 * The parts of an Amp thread document (`threads/T-<uuid>.json`) agentwatch reads. Every object is
 * `.loose()` and nearly every field optional: Amp adds fields between versions, and a thread that
 * lacks one of them is still a thread.
 */

// The block and message objects below strip the fields agentwatch does not read (zod's default):
// `.loose()` copied every unknown key (tool inputs, results, thinking) of every message on each read.
export const textBlockSchema = z.object({ type: z.literal('text'), text: z.string().catch('') });
export const toolUseBlockSchema = z
  .object({
    type: z.literal('tool_use'),
    id: z.string().optional(),
    name: z.string().catch(''),
    // Only the written file's name is read (see parse.ts `writtenPath`), not the file contents.
    input: z.object({ path: z.unknown().optional(), file_path: z.unknown().optional(), patchText: z.unknown().optional() }).optional().catch(undefined),
    startTime: time,
    finalTime: time,
  });
export const toolResultBlockSchema = z
  .object({
    type: z.literal('tool_result'),
    toolUseID: z.string().optional(),
    run: z.object({ status: z.string().optional() }).optional().catch(undefined),
  });
export type TextBlock = z.infer<typeof textBlockSchema>;
export type ToolUseBlock = z.infer<typeof toolUseBlockSchema>;
export type ToolResultBlock = z.infer<typeof toolResultBlockSchema>;

/**
 * A message's blocks are only checked for a `type` here; the three kinds agentwatch reads are
 * validated by their own schema once the type picked it (a union would try every branch of
 * every block, and thinking or summary blocks, or kinds Amp adds later, must not fail a message).
 */
const anyBlock = z.object({ type: z.string() }).loose();

const ampUsageSchema = z
  .object({
    model: z.string().optional(),
    inputTokens: tokens,
    outputTokens: tokens,
    cacheCreationInputTokens: tokens,
    cacheReadInputTokens: tokens,
    timestamp: z.string().optional(),
  });

export const ampMessageSchema = z
  .object({
    role: z.string(),
    messageId: z.number().optional(),
    content: z.array(anyBlock).catch([]).default([]),
    state: z.object({ type: z.string().optional(), stopReason: z.string().optional() }).optional().catch(undefined),
    usage: ampUsageSchema.optional().catch(undefined),
    meta: z.object({ sentAt: time }).optional().catch(undefined),
  });
export type AmpMessage = z.infer<typeof ampMessageSchema>;

const treeSchema = z
  .object({
    // A `file://` URI; some editor-extension builds store a URI object instead.
    uri: z
      .union([z.string(), z.object({ fsPath: z.string().optional(), path: z.string().optional() }).loose()])
      .optional()
      .catch(undefined),
    repository: z.object({ ref: z.string().optional() }).loose().optional().catch(undefined),
  })
  .loose();

export const ampThreadSchema = z
  .object({
    id: z.string().min(1),
    created: time,
    title: z.string().optional().catch(undefined),
    messages: z.array(z.unknown()).catch([]).default([]),
    env: z
      .object({
        initial: z
          .object({
            trees: z.array(treeSchema).optional().catch(undefined),
            platform: z.object({ clientVersion: z.string().optional() }).loose().optional().catch(undefined),
          })
          .loose()
          .optional()
          .catch(undefined),
      })
      .loose()
      .optional()
      .catch(undefined),
    '~debug': z
      .object({ lastInferenceUsage: z.object({ model: z.string().optional() }).loose().optional().catch(undefined) })
      .loose()
      .optional()
      .catch(undefined),
  })
  .loose();
export type AmpThread = z.infer<typeof ampThreadSchema>;

