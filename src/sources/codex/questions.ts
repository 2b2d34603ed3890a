import { z } from 'zod';
import { parseJson } from '../internal/skim.js';

/**
 * `request_user_input` (Plan mode) asks the person one to three questions and blocks the turn
 * until they answer: its call stays without output meanwhile, so the session waits for the user
 * rather than runs a tool (docs/formats/codex.md).
 */
export const QUESTION_TOOL = 'request_user_input';

const questionArgsSchema = z.object({
  questions: z.array(z.object({ header: z.string().optional(), question: z.string().optional() }).loose()).catch([]),
});

/** The questions of a `request_user_input` call, one a line; '' when its arguments say none. */
export const questionText = (args: unknown): string => {
  const parsed = questionArgsSchema.safeParse(typeof args === 'string' ? parseJson(args) : args);
  if (!parsed.success) return '';
  return parsed.data.questions
    .map((q) => (q.question ?? q.header ?? '').trim())
    .filter((text) => text !== '')
    .join('\n');
};
