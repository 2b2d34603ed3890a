import { z } from 'zod';

/** RFC 3339 with `Z` or an offset and any number of fraction digits (kimi sends nanoseconds). */
export const isoTime = z.iso.datetime({ offset: true });

/** A count sent as an integer or as a proto int64 digit string, as a number. */
export const countSchema = z.union([z.number().int().min(0), z.string().regex(/^\d+$/, 'expected a digit string').transform(Number)]);

/** `pro_plus` -> `Pro+`, `max` -> `Max`, `LEVEL_INTERMEDIATE` -> `Intermediate`. */
export const planName = (raw: string): string => {
  const words = raw
    .replace(/^LEVEL_/i, '')
    .toLowerCase()
    .split(/[_\s-]+/)
    .filter(Boolean);
  if (words.length === 0) return '';
  if (words.length === 2 && words[1] === 'plus') return `${capital(words[0] ?? '')}+`;
  return words.map(capital).join(' ');
};

const capital = (word: string): string => (word ? `${word[0]?.toUpperCase() ?? ''}${word.slice(1)}` : '');

/** Cents as dollars with two decimals: 41830 -> `$418.30`. */
export const dollars = (cents: number): string => `$${(cents / 100).toFixed(2)}`;
