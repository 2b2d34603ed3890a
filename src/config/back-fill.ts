import { configSchema } from './schema.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The defaults of a fresh file: every key of the schema. */
const freshDocument = (): Record<string, unknown> => configSchema.parse({});

/**
 * `raw` with every key it lacks added with its default, also inside `agents` and `tui` when they
 * are objects; what it holds stays exactly as written (an invalid value included: it reads as its
 * fallback, and the user fixes it). `missing` says whether anything was added.
 */
export const backFill = (raw: Record<string, unknown>, defaults: Record<string, unknown> = freshDocument()): { readonly filled: Record<string, unknown>; readonly missing: boolean } => {
  const filled: Record<string, unknown> = { ...raw };
  let missing = false;
  for (const [key, value] of Object.entries(defaults)) {
    const own = raw[key];
    if (!(key in raw)) {
      filled[key] = value;
      missing = true;
    } else if (isObject(value) && isObject(own)) {
      const inner = backFill(own, value);
      filled[key] = inner.filled;
      missing ||= inner.missing;
    }
  }
  return { filled, missing };
};
