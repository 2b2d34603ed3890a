import type { z } from 'zod';
import { configSchema } from './schema.js';
import { describeRule, fallbackOf, metaOf, nestedSettings, ruleOf, typeName } from './rules.js';

/**
 * The key table of docs/configuration.md, written from the schema (`npm run docs:config`), so the
 * page says what the code does: each key's type, default, the values it takes and what it is for.
 */

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

const row = (path: string, setting: z.ZodType): string => {
  const rule = ruleOf(setting);
  return `| \`${path}\` | ${typeName(rule)} | \`${JSON.stringify(fallbackOf(setting))}\` | ${cell(describeRule(rule))} | ${cell(metaOf(setting).description)} |`;
};

/** A row for a key; an object of settings alike (the agent switches) is one row, any other gets one per key inside. */
const rows = (key: string, setting: z.ZodType): string[] => {
  const nested = nestedSettings(ruleOf(setting));
  if (nested === undefined) return [row(key, setting)];
  const inner = Object.values(nested);
  const alike = inner.length > 1 && inner.every((s) => describeRule(ruleOf(s)) === describeRule(ruleOf(inner[0] as z.ZodType)) && JSON.stringify(fallbackOf(s)) === JSON.stringify(fallbackOf(inner[0] as z.ZodType)));
  if (alike) return [`| \`${key}\` | object | all \`${JSON.stringify(fallbackOf(inner[0] as z.ZodType))}\` | ${cell(describeRule(ruleOf(inner[0] as z.ZodType)))} each | ${cell(metaOf(setting).description)} |`];
  return Object.entries(nested).map(([name, s]) => row(`${key}.${name}`, s));
};

const configTable = (): string =>
  [
    '| Key | Type | Default | Takes | Meaning |',
    '|---|---|---|---|---|',
    ...Object.entries(configSchema.shape as Record<string, z.ZodType>).flatMap(([key, setting]) => rows(key, setting)),
  ].join('\n');

const TABLE_START = '<!-- config-table: written by npm run docs:config from src/config/schema.ts -->';
const TABLE_END = '<!-- /config-table -->';

/** `page` with the text between the markers replaced by the table. */
export const withConfigTable = (page: string): string => {
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start === -1 || end < start) throw new Error(`the page has no ${TABLE_START} ... ${TABLE_END} markers`);
  return `${page.slice(0, start + TABLE_START.length)}\n${configTable()}\n${page.slice(end)}`;
};
