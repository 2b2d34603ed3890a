import { AGENT_KINDS } from '../core/agents.js';
import { closest, holdsEither, nearest } from '../util/closest.js';
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
  /** The path of a known key close enough to be what was meant (a typo): "did you mean". */
  readonly suggestion?: string;
  /** The path of the nearest known key however far (`theme` -> `tui.theme`, `agents.claud` -> `agents.claude`). */
  readonly closest?: string;
}

const WEBHOOK_KEYS = Object.keys(webhookEntrySchema.shape);
/** The keys of the object-valued settings (`agents`, `tui`), by setting. */
export const NESTED_CONFIG_KEYS: Readonly<Record<'agents' | 'tui', readonly string[]>> = { agents: AGENT_KINDS, tui: ['theme'] };

/** The closest of `known` to `key` when it is close enough to be a typo (case-insensitive). */
export const closestKey = (key: string, known: readonly string[]): string | undefined => closest(key, known);

/**
 * What an unknown key at one level may have meant, as names to compare it with, each with the
 * path to suggest for it: the known keys of that level, and at the top level also the nested ones
 * by their last part (`claude` -> `agents.claude`, `theme` -> `tui.theme`).
 */
const knownOf = (keys: readonly string[], nested: Readonly<Record<string, readonly string[]>> = {}): ReadonlyMap<string, string> => {
  const forms = new Map<string, string>(keys.map((key) => [key, key]));
  for (const [section, leaves] of Object.entries(nested)) {
    for (const leaf of leaves) {
      const dotted = `${section}.${leaf}`;
      forms.set(dotted, dotted);
      if (!forms.has(leaf)) forms.set(leaf, dotted);
    }
  }
  return forms;
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const unknownIn = (object: Record<string, unknown>, keys: readonly string[], prefix: string, forms: ReadonlyMap<string, string> = knownOf(keys)): UnknownKey[] =>
  Object.keys(object)
    .filter((key) => !keys.includes(key))
    .map((key) => {
      const near = nearest(key, forms.keys());
      // What was meant: a typo of a known name, or a part of one (`window`, `exclude_cwd`).
      const meant = closest(key, forms.keys()) ?? (near !== undefined && key.length >= 3 && holdsEither(near, key) ? near : undefined);
      const formPath = (form: string | undefined): string | undefined => (form === undefined ? undefined : `${prefix}${forms.get(form) ?? form}`);
      const suggestion = formPath(meant);
      const closestPath = suggestion ?? formPath(near);
      return { path: `${prefix}${key}`, key, ...(suggestion ? { suggestion } : {}), ...(closestPath ? { closest: closestPath } : {}) };
    });

export const findUnknownKeys = (raw: unknown): UnknownKey[] => {
  if (!isObject(raw)) return [];
  const found = unknownIn(raw, CONFIG_KEYS, '', knownOf(CONFIG_KEYS, NESTED_CONFIG_KEYS));
  for (const [section, known] of Object.entries(NESTED_CONFIG_KEYS)) {
    const value = raw[section];
    if (isObject(value)) found.push(...unknownIn(value, known, `${section}.`));
  }
  const hooks = raw.webhooks;
  if (Array.isArray(hooks)) hooks.forEach((hook, index) => isObject(hook) && found.push(...unknownIn(hook, WEBHOOK_KEYS, `webhooks[${index}].`)));
  return found;
};

/** An unknown key and the closest known key: `unknown key "them" (did you mean "theme"?)`. */
export const describeUnknownKey = (unknown: UnknownKey): string => {
  const hint = unknown.suggestion ? ` (did you mean "${unknown.suggestion}"?)` : unknown.closest ? ` (no such key; the closest known key is "${unknown.closest}")` : '';
  return `unknown key "${unknown.path}"${hint}`;
};

/** The warning line of one unknown key (the file is never changed for it). */
export const unknownKeyWarning = (unknown: UnknownKey): string => `${describeUnknownKey(unknown)}; it is kept in the file but has no effect`;
