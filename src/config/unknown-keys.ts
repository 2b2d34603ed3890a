import { AGENT_KINDS } from '../core/agents.js';
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

/** Edit distance (insert, delete, substitute, swap of neighbours), small strings only. */
const distance = (a: string, b: string): number => {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const row = rows[i] as number[];
      const prev = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, ((rows[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
};

/** The closest of `known` to `key` when it is close enough to be a typo (case-insensitive). */
export const closestKey = (key: string, known: readonly string[]): string | undefined => {
  let best: { readonly name: string; readonly d: number } | undefined;
  for (const name of known) {
    const d = distance(key.toLowerCase(), name.toLowerCase());
    if (!best || d < best.d) best = { name, d };
  }
  const limit = Math.max(2, Math.floor(key.length / 3));
  return best && best.d <= limit ? best.name : undefined;
};

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
