/**
 * What the index stores for one message, beside the tokenizer (`unicode61`, see index-db.ts):
 *
 * - Scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer, Burmese)
 *   and Korean (whose particles attach to the word) get a zero-width space between characters,
 *   so each character is a token and a query becomes a phrase of characters: `刷新` finds
 *   `修复了刷新令牌`, `버그` finds `버그를`. The same transform runs on queries (query-syntax.ts).
 * - camelCase identifiers stay whole in the text (`refreshtoken` finds `refreshToken`) and their
 *   parts go to a second column (`token` finds `refreshToken` too). snake_case and kebab-case need
 *   nothing: `_` and `-` separate tokens, and a query `session_id` is the phrase `session id`.
 *
 * Pure functions; the separator is removed again from every snippet shown (snippet.ts).
 */

/** Zero width space: a separator for unicode61 (category Cf), invisible, and never typed in a query. */
export const SEP = '\u200B';

const UNSPACED = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}';
/** Before a letter of those scripts (not before its combining marks) and after one, when a letter or digit is next. */
const BOUNDARY = new RegExp(`(?<=[\\p{L}\\p{N}\\p{M}])(?=(?!\\p{M})[${UNSPACED}])|(?<=[${UNSPACED}])(?=[\\p{L}\\p{N}])`, 'gu');
/** The first code point of any of those scripts is U+0E00 (Thai): most text is skipped by one test. */
const MAY_NEED = /[\u0E00-\uFFFF]/;

/** Text with a separator between the characters of unspaced scripts (identity for other text). */
export const segment = (text: string): string => (MAY_NEED.test(text) ? text.replace(BOUNDARY, SEP) : text);

/** Removes what `segment` inserted. */
export const unsegment = (text: string): string => (text.includes(SEP) ? text.replaceAll(SEP, '') : text);

const WORD = /[\p{L}\p{N}]+/gu;
/** lower->Upper, digit->Upper, and the last capital of a run before a lowercase letter (HTTPServer). */
const CAMEL = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
const CAMEL_G = new RegExp(CAMEL.source, 'gu');
const MAY_HAVE_CAMEL = /[\p{Ll}\p{N}]\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u;

/** The parts of one camelCase word, or undefined for any other word (`refreshToken` -> refresh, Token). */
export const camelParts = (word: string): string[] | undefined => (word.length >= 3 && /^[\p{L}\p{N}]+$/u.test(word) && CAMEL.test(word) ? word.split(CAMEL_G) : undefined);

/** The parts of every camelCase word of `text`, once each (`refreshTokenIfNeeded` -> `refresh Token If Needed`). */
export const identifierParts = (text: string): string => {
  if (!MAY_HAVE_CAMEL.test(text)) return '';
  const parts = new Set<string>();
  for (const [word] of text.matchAll(WORD)) {
    if (word.length < 3 || !CAMEL.test(word)) continue;
    for (const part of word.split(CAMEL_G)) parts.add(part);
  }
  return [...parts].join(' ');
};
