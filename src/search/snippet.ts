import type { PreparedQuery } from './query-syntax.js';
import { SEP } from './segment.js';

/**
 * Snippets carry their hits between two control characters that never occur in a message, so
 * brackets a message already holds (`items[0]`) are never taken for hits. `--json` and the API
 * write the hits as `[...]` (docs/search.md), a terminal in color (`renderMarks`).
 */
export const HIT_OPEN = '\u0002';
export const HIT_CLOSE = '\u0003';
const ELLIPSIS = '…';

const ADJACENT = new RegExp(`${HIT_CLOSE}${SEP}${HIT_OPEN}`, 'g');

/** FTS5's snippet made readable: hits across the index's separators joined, separators dropped, one line. */
export const cleanSnippet = (raw: string): string =>
  raw.replace(ADJACENT, '').replaceAll(SEP, '').replace(/\s+/gu, ' ').trim();

export const hasHit = (snippet: string): boolean => snippet.includes(HIT_OPEN);

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Characters of context kept before and after the first hit of a fallback snippet. */
const BEFORE = 60;
const AFTER = 140;

/**
 * A snippet for a message FTS5 matched through what its snippet cannot mark (a part of a
 * camelCase identifier): the first place a query word occurs, with every occurrence nearby marked.
 * Undefined when no word occurs as written (the caller keeps FTS5's snippet).
 */
export const fallbackSnippet = (text: string, terms: PreparedQuery['terms']): string | undefined => {
  const words = terms.filter((t) => t.text.trim() !== '');
  if (words.length === 0) return undefined;
  const pattern = new RegExp(words.map((t) => `${escapeRegExp(t.text)}${t.prefix ? '[\\p{L}\\p{N}]*' : ''}`).join('|'), 'giu');
  const flat = text.replace(/\s+/gu, ' ');
  const first = pattern.exec(flat);
  if (!first) return undefined;
  let start = Math.max(0, first.index - BEFORE);
  let end = Math.min(flat.length, first.index + first[0].length + AFTER);
  if (start > 0) start = flat.indexOf(' ', start) === -1 || flat.indexOf(' ', start) > first.index ? start : flat.indexOf(' ', start) + 1;
  if (end < flat.length) end = Math.max(first.index + first[0].length, flat.lastIndexOf(' ', end));
  const window = flat.slice(start, end);
  const marked = window.replace(pattern, (hit) => `${HIT_OPEN}${hit}${HIT_CLOSE}`);
  return `${start > 0 ? ELLIPSIS : ''}${marked.trim()}${end < flat.length ? ELLIPSIS : ''}`;
};

/** Hits as `[...]` (the JSON and API form). */
export const bracketHits = (snippet: string): string => snippet.replaceAll(HIT_OPEN, '[').replaceAll(HIT_CLOSE, ']');

/** Hits through `mark` (a terminal color), or as `[...]` when there is none. */
export const renderHits = (snippet: string, mark?: (hit: string) => string): string =>
  mark ? snippet.replace(new RegExp(`${HIT_OPEN}([^${HIT_CLOSE}]*)${HIT_CLOSE}`, 'g'), (_, hit: string) => mark(hit)) : bracketHits(snippet);
