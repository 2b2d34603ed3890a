import type { z } from 'zod';
import { closest } from '../util/closest.js';
import { configSchema, type StoredConfig } from './schema.js';
import { describeRule, fallbackOf, metaOf, nestedSettings, ruleOf } from './rules.js';

/**
 * The one rule for a value the file holds that its key does not take: the key reads as its
 * fallback (the schema's `.catch`), and one warning names the key path, the value, what the key
 * takes, the value probably meant, and the fallback used. The file keeps what the user wrote.
 */

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value as a warning quotes it: JSON on one line, cut short when long. */
const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** What was probably meant: an allowed value close to a typo, or the value without the quotes around it (`"30"`, `"true"`). */
const guessFor = (rule: z.ZodType, value: unknown): string | undefined => {
  if (typeof value !== 'string') return undefined;
  const options = (rule as { options?: unknown }).options;
  if (Array.isArray(options)) {
    const near = closest(value, options.filter((option): option is string => typeof option === 'string' && option !== ''));
    if (near !== undefined) return JSON.stringify(near);
  }
  try {
    const unquoted: unknown = JSON.parse(value);
    return typeof unquoted !== 'string' && rule.safeParse(unquoted).success ? value.trim() : undefined;
  } catch {
    return undefined;
  }
};

const warningFor = (path: string, setting: z.ZodType, rule: z.ZodType, value: unknown): string => {
  const guess = metaOf(setting).secret ? undefined : guessFor(rule, value);
  const given = metaOf(setting).secret ? '(not shown)' : shown(value);
  return `${path} ${given} is not ${describeRule(rule)}${guess === undefined ? '' : ` (did you mean ${guess}?)`}; using ${JSON.stringify(fallbackOf(setting))}`;
};

const walk = (settings: Readonly<Record<string, z.ZodType>>, document: Readonly<Record<string, unknown>>, prefix: string): string[] =>
  Object.entries(settings).flatMap(([key, setting]) => {
    const value = document[key];
    if (value === undefined) return [];
    const rule = ruleOf(setting);
    const nested = nestedSettings(rule);
    // An object of settings holds its own fallbacks: each of its keys is judged on its own.
    if (nested !== undefined && isObject(value)) return walk(nested, value, `${prefix}${key}.`);
    return rule.safeParse(value).success ? [] : [warningFor(`${prefix}${key}`, setting, rule, value)];
  });

/**
 * One warning per key whose value the file holds but the key does not take:
 * `tui.theme "drak" is not one of "auto", "dark", "light" (did you mean "dark"?); using "auto"`, in the order of the schema.
 * A secret's value is never quoted.
 */
export const fallbackWarnings = (stored: StoredConfig): string[] => walk(configSchema.shape as Record<string, z.ZodType>, stored, '');
