import { closest, holdsEither, nearest } from '../util/closest.js';
import { CONFIG_KEYS, NESTED_CONFIG_KEYS, webhookEntrySchema } from './schema.js';

/**
 * Keys of a config document that agentwatch does not know, at any level: a typo such as
 * `window_minuts` or `"agents": { "claud": false }` would otherwise be kept silently and the
 * setting would just not apply. Unknown keys stay in the file; this only
 * names them, with the known key that was probably meant, or, when none is close, the keys of
 * that level (never a far-fetched "closest" key: `zzzz` is not a typo of `tui`).
 */
export interface UnknownKey {
  /** Dotted path: `window_minuts`, `agents.claud`, `webhooks[1].secert`. */
  readonly path: string;
  readonly key: string;
  /** The path of a known key close enough to be what was meant (a typo): "did you mean". */
  readonly suggestion?: string;
  /** Without a suggestion: the known keys of the level the key sits at, to choose from. */
  readonly known?: readonly string[];
}

const WEBHOOK_KEYS = Object.keys(webhookEntrySchema.shape);

/** The closest of `known` to `key` when it is close enough to be a typo (case-insensitive). */
export const closestKey = (key: string, known: readonly string[]): string | undefined => closest(key, known);

/** True when `a` becomes `b` by at most one insertion, deletion, substitution or swap of neighbours (case-insensitive). */
const withinOneEdit = (a: string, b: string): boolean => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (Math.abs(x.length - y.length) > 1) return false;
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i += 1;
  if (x.length === y.length) return x.slice(i + 1) === y.slice(i + 1) || (x[i] === y[i + 1] && x[i + 1] === y[i] && x.slice(i + 2) === y.slice(i + 2));
  return x.length < y.length ? x.slice(i) === y.slice(i + 1) : x.slice(i + 1) === y.slice(i);
};

/** Shortest key that may be matched against the beginning of a known key (`windw` -> `window_minutes`; `note` is too short to say). */
const MIN_PREFIX_TYPO = 5;

/** A typo of a whole known key (`window_minuts`, `edtior`): one edit for a short key, closest()'s measure for a longer one. */
const typoOf = (key: string, known: readonly string[]): string | undefined =>
  key.length < MIN_PREFIX_TYPO ? known.find((name) => withinOneEdit(key, name)) : closest(key, known);

/** A part of a known key (`window`, `exclude_cwd`), or a typo of its beginning (`windw`, `notifcat`). */
const partOf = (key: string, known: readonly string[]): string | undefined => {
  const near = nearest(key, known);
  if (near !== undefined && key.length >= 3 && holdsEither(near, key)) return near;
  if (key.length < MIN_PREFIX_TYPO) return undefined;
  return known.find((name) => name.length > key.length && [key.length - 1, key.length, key.length + 1].some((n) => withinOneEdit(key, name.slice(0, n))));
};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The unknown keys of one object, each with what was probably meant. `nested`: at the top level,
 * the keys of the object-valued settings by their last part (`claude` -> `agents.claude`,
 * `theme` -> `tui.theme`). A key of the same level comes first, except that a nested key named
 * exactly is that one: the exact name, then a typo of a key of the same level, a typo of a nested
 * one, a part of a key of the same level, a part of a nested one.
 */
const unknownIn = (object: Record<string, unknown>, keys: readonly string[], prefix: string, nested: Readonly<Record<string, readonly string[]>> = {}): UnknownKey[] => {
  const sections = Object.entries(nested);
  const inSections = (find: (key: string, known: readonly string[]) => string | undefined, key: string): string | undefined => {
    for (const [section, leaves] of sections) {
      const leaf = find(key, leaves);
      if (leaf !== undefined) return `${section}.${leaf}`;
    }
    return undefined;
  };
  const exactly = (key: string, known: readonly string[]): string | undefined => known.find((name) => name.toLowerCase() === key.toLowerCase());
  return Object.keys(object)
    .filter((key) => !keys.includes(key))
    .map((key): UnknownKey => {
      const meant = exactly(key, keys) ?? inSections(exactly, key) ?? typoOf(key, keys) ?? inSections(typoOf, key) ?? partOf(key, keys) ?? inSections(partOf, key);
      return meant === undefined ? { path: `${prefix}${key}`, key, known: keys } : { path: `${prefix}${key}`, key, suggestion: `${prefix}${meant}` };
    });
};

export const findUnknownKeys = (raw: unknown): UnknownKey[] => {
  if (!isObject(raw)) return [];
  const found = unknownIn(raw, CONFIG_KEYS, '', NESTED_CONFIG_KEYS);
  for (const [section, known] of Object.entries(NESTED_CONFIG_KEYS)) {
    const value = raw[section];
    if (isObject(value)) found.push(...unknownIn(value, known, `${section}.`));
  }
  const hooks = raw.webhooks;
  if (Array.isArray(hooks)) hooks.forEach((hook, index) => isObject(hook) && found.push(...unknownIn(hook, WEBHOOK_KEYS, `webhooks[${index}].`)));
  return found;
};

/** Where the keys of `unknown.known` live, for the message: `the top-level keys`, `the keys of agents`. */
const levelOf = (path: string, key: string): string => {
  if (path === key) return 'the top-level keys';
  const parent = path.slice(0, path.length - key.length - 1);
  return /^webhooks\[\d+\]$/.test(parent) ? 'the keys of a webhook entry' : `the keys of ${parent}`;
};

/**
 * An unknown key and what was meant: `unknown key "them" (did you mean "theme"?)`, or with nothing
 * close, the known keys of its level: `unknown key "agents.foo" (no such key; the keys of agents are amp, ...)`.
 */
export const describeUnknownKey = (unknown: UnknownKey): string => {
  const hint = unknown.suggestion
    ? ` (did you mean "${unknown.suggestion}"?)`
    : unknown.known && unknown.known.length > 0
      ? ` (no such key; ${levelOf(unknown.path, unknown.key)} are ${unknown.known.join(', ')})`
      : ' (no such key)';
  return `unknown key "${unknown.path}"${hint}`;
};

/** The warning line of one unknown key (the file is never changed for it). */
export const unknownKeyWarning = (unknown: UnknownKey): string => `${describeUnknownKey(unknown)}; it is kept in the file but has no effect`;
