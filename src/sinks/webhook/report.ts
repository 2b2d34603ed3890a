import { TimeoutError } from 'rxjs';
import type { InvalidWebhook } from '../../config/effective.js';
import { HttpStatusError } from './deliver.js';

const SNIPPET_CHARS = 200;

/** A receiver's body on one line, cut short: enough to see "invalid token", never a whole page. */
export const bodySnippet = (body: string): string => {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS)}…` : flat;
};

/** Why one attempt failed, in words a user can act on. */
export const describeFailure = (error: unknown, timeoutMs: number): string => {
  if (error instanceof HttpStatusError) {
    const snippet = bodySnippet(error.response.body);
    return snippet ? `${error.message}: ${snippet}` : error.message;
  }
  if (error instanceof TimeoutError) return `no response within ${timeoutMs / 1000} s`;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
};

/** One line per invalid entry, naming it and everything wrong with it. */
export const describeInvalidWebhook = (invalid: InvalidWebhook): string =>
  `webhook "${invalid.name}" (entry ${invalid.index + 1}) is ignored: ${invalid.problems.join('; ')}`;
