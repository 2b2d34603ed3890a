import { z } from 'zod';

/**
 * The `parts` JSON of a Crush message (docs/formats/crush.md): an array of `{type, data}`.
 * Tolerant of every field not read; a part of a type not listed is kept as unknown.
 */

const optionalString = z.string().optional().catch(undefined);
const optionalBoolean = z.boolean().optional().catch(undefined);

const textPart = z.looseObject({ type: z.literal('text'), data: z.looseObject({ text: optionalString }) });
const reasoningPart = z.looseObject({ type: z.literal('reasoning'), data: z.looseObject({ thinking: optionalString }) });
const toolCallPart = z.looseObject({
  type: z.literal('tool_call'),
  data: z.looseObject({ id: optionalString, name: optionalString, input: optionalString, finished: optionalBoolean }),
});
const toolResultPart = z.looseObject({
  type: z.literal('tool_result'),
  data: z.looseObject({ tool_call_id: optionalString, name: optionalString, is_error: optionalBoolean }),
});
const finishPart = z.looseObject({
  type: z.literal('finish'),
  data: z.looseObject({ reason: optionalString, time: z.number().optional().catch(undefined), message: optionalString }),
});

/** Parts that carry nothing agentwatch shows (attachments, a shell command the user ran). */
export const IGNORED_PART_TYPES: ReadonlySet<string> = new Set(['image_url', 'binary', 'shell_command']);

export const crushPartSchema = z.discriminatedUnion('type', [textPart, reasoningPart, toolCallPart, toolResultPart, finishPart]);
export type CrushPart = z.infer<typeof crushPartSchema>;

/** The raw array: each element is checked on its own, so one odd part is one diagnostic. */
export const crushPartsSchema = z.array(z.looseObject({ type: z.string() }));

/** A tool call's `input`, itself JSON text: only the written file is read. */
export const toolInputSchema = z.looseObject({ file_path: optionalString, path: optionalString });
