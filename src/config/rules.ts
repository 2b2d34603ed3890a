import { z } from 'zod';
import type { SettingMeta } from './schema.js';

/**
 * Reading the one config schema (schema.ts) back: a key's rule without its fallback, the value it
 * falls back to, its metadata, and what it takes in words. PUT /api/config, the load warnings, the
 * bounds the dashboard and the TUI step within and the docs table are all built from these.
 */

/** The rule of a key, without its default and fallback: what PUT /api/config checks a value with. */
export const ruleOf = (setting: z.ZodType): z.ZodType => {
  let inner = setting;
  if (inner instanceof z.ZodCatch) inner = inner.unwrap() as z.ZodType;
  if (inner instanceof z.ZodDefault) inner = inner.unwrap() as z.ZodType;
  return inner;
};

/** What a key reads as when missing or invalid (a fresh copy). */
export const fallbackOf = (setting: z.ZodType): unknown => setting.parse(undefined);

export const metaOf = (setting: z.ZodType): SettingMeta => (setting.meta() ?? { description: '' }) as SettingMeta;

/** The settings inside an object-valued key (`agents`, `tui`), or undefined for any other rule. */
export const nestedSettings = (rule: z.ZodType): Readonly<Record<string, z.ZodType>> | undefined =>
  rule instanceof z.ZodObject ? (rule.shape as Record<string, z.ZodType>) : undefined;

/** The whole-number range of a rule (`{ min: 1, max: 10080 }`), or undefined when it is not a bounded number. */
export const rangeOf = (rule: z.ZodType): { readonly min: number; readonly max: number } | undefined => {
  if (!(rule instanceof z.ZodNumber)) return undefined;
  const { minValue, maxValue } = rule;
  return minValue === null || maxValue === null ? undefined : { min: minValue, max: maxValue };
};

const quoted = (values: readonly unknown[]): string => values.map((value) => JSON.stringify(value)).join(', ');

/** What a rule takes, in words: `a whole number in 1..10080`, `one of "auto", "dark", "light"`, `true or false`. */
export const describeRule = (rule: z.ZodType): string => {
  if (rule instanceof z.ZodBoolean) return 'true or false';
  if (rule instanceof z.ZodNumber) {
    const range = rangeOf(rule);
    const whole = rule.isInt ? 'a whole number' : 'a number';
    return range === undefined ? whole : `${whole} in ${range.min}..${range.max}`;
  }
  if (rule instanceof z.ZodString) return rule.maxLength === null ? 'text' : `text of at most ${rule.maxLength} characters`;
  if (rule instanceof z.ZodEnum) return `one of ${quoted(rule.options)}`;
  if (rule instanceof z.ZodArray) return rule.element instanceof z.ZodString ? 'a list of strings' : 'a list of objects';
  if (rule instanceof z.ZodPipe) return describeRule(rule.in as z.ZodType);
  if (rule instanceof z.ZodRecord) return 'an object of names to objects';
  const nested = nestedSettings(rule);
  if (nested) return `an object of ${Object.keys(nested).join(', ')}`;
  return 'another value';
};

/** The key's type as the docs table names it. */
export const typeName = (rule: z.ZodType): string => {
  if (rule instanceof z.ZodBoolean) return 'boolean';
  if (rule instanceof z.ZodNumber) return rule.isInt ? 'integer' : 'number';
  if (rule instanceof z.ZodString || rule instanceof z.ZodEnum) return 'string';
  if (rule instanceof z.ZodArray) return rule.element instanceof z.ZodString ? 'string[]' : 'array';
  if (rule instanceof z.ZodPipe) return typeName(rule.in as z.ZodType);
  return 'object';
};
