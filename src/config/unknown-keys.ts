import { AGENT_KINDS } from '../core/agents.js';
import { closest } from '../util/closest.js';
import { CONFIG_KEYS, webhookEntrySchema } from './schema.js';

/**
 * Keys of a config document that agentwatch does not know, at any level: a typo such as
 * `window_minuts` or `"agents": { "claud": false }` would otherwise be kept silently and the
 * setting would just not apply. Unknown keys stay in the file (PRODUCT.md section 2); this only
 * names them, with the closest known key.
 */
export interface UnknownKey {
  /** Dotted path: `window_minuts`, `agents.claud`, `webhooks[1].secert`. */
  readonly path: string;
  readonly key: string;
  readonly suggestion?: string;
}

const WEBHOOK_KEYS = Object.keys(webhookEntrySchema.shape);
const NESTED: Readonly<Record<string, readonly string[]>> = { agents: AGENT_KINDS, tui: ['theme'] };

/** The closest of `known` to `key` when it is close enough to be a typo (case-insensitive). */
export const closestKey = (key: string, known: readonly string[]): string | undefined => closest(key, known);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const unknownIn = (object: Record<string, unknown>, known: readonly string[], prefix: string): UnknownKey[] =>
  Object.keys(object)
    .filter((key) => !known.includes(key))
    .map((key) => {
      const suggestion = closestKey(key, known);
      return { path: `${prefix}${key}`, key, ...(suggestion ? { suggestion } : {}) };
    });

export const findUnknownKeys = (raw: unknown): UnknownKey[] => {
  if (!isObject(raw)) return [];
  const found = unknownIn(raw, CONFIG_KEYS, '');
  for (const [section, known] of Object.entries(NESTED)) {
    const value = raw[section];
    if (isObject(value)) found.push(...unknownIn(value, known, `${section}.`));
  }
  const hooks = raw.webhooks;
  if (Array.isArray(hooks)) hooks.forEach((hook, index) => isObject(hook) && found.push(...unknownIn(hook, WEBHOOK_KEYS, `webhooks[${index}].`)));
  return found;
};

/** The warning line of one unknown key (the file is never changed for it). */
export const unknownKeyWarning = (unknown: UnknownKey): string =>
  `unknown key "${unknown.path}"${unknown.suggestion ? ` (did you mean "${unknown.suggestion}"?)` : ''}; it is kept in the file but has no effect`;
