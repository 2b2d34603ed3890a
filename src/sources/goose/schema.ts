import { z } from 'zod';

/**
 * Goose's `content_json` (docs/formats/goose.md): an array of content items tagged by `type`.
 * Tolerant of every field not read; an item of a type not listed is counted as unknown.
 */

const optionalString = z.string().optional().catch(undefined);
const args = z.record(z.string(), z.unknown()).optional().catch(undefined);


const text = z.looseObject({ type: z.literal('text'), text: optionalString });
const toolRequest = z.looseObject({
  type: z.enum(['toolRequest', 'frontendToolRequest']),
  id: optionalString,
  // `{status: "success", value}` or `{status: "error", error}`, as Goose writes a call and a result.
  toolCall: z.looseObject({ status: optionalString, value: z.looseObject({ name: optionalString, arguments: args }).optional().catch(undefined) }).optional().catch(undefined),
});
const toolResponse = z.looseObject({
  type: z.literal('toolResponse'),
  id: optionalString,
  toolResult: z.looseObject({ status: optionalString, value: z.looseObject({ isError: z.boolean().optional().catch(undefined) }).optional().catch(undefined) }).optional().catch(undefined),
});
const thinking = z.looseObject({ type: z.enum(['thinking', 'redactedThinking']) });
/** A tool waiting for the person's approval (older Goose: `toolConfirmationRequest`), or a question (`elicitation`). */
const actionRequired = z.looseObject({ type: z.literal('actionRequired'), data: z.looseObject({ actionType: optionalString }).optional().catch(undefined) });
const confirmation = z.looseObject({ type: z.literal('toolConfirmationRequest'), toolName: optionalString });

export const gooseContentSchema = z.discriminatedUnion('type', [text, toolRequest, toolResponse, thinking, actionRequired, confirmation]);
export type GooseContent = z.infer<typeof gooseContentSchema>;

/** Items that carry nothing agentwatch shows. */
export const IGNORED_CONTENT_TYPES: ReadonlySet<string> = new Set(['image', 'systemNotification']);

export const gooseContentListSchema = z.array(z.looseObject({ type: z.string() }));

/** `metadata_json`: a message hidden from the person (a compaction's summary, injected context) is no prompt. */
export const gooseMetadataSchema = z.looseObject({ userVisible: z.boolean().optional().catch(undefined) });

/** `model_config_json`: the model the session runs. */
export const gooseModelConfigSchema = z.looseObject({ model_name: optionalString });
