import { pick, randInt, type Rng } from './prng.js';

/**
 * Generators of hostile input for the fuzz tests of the API and the config file: strings that
 * break naive code (unicode, NUL, path tricks, prototype keys, huge), JSON values of every type,
 * and ways to damage a JSON text. Each takes the seeded PRNG, so a failing case replays.
 */

export const chance = (rng: Rng, p: number): boolean => rng() < p;

/** Strings that have broken parsers, paths and objects somewhere. */
export const NASTY_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  '1e999',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '../../etc/passwd',
  '..%2f..%2fetc',
  '/',
  '//',
  '\\\\server\\share',
  'C:\\Windows',
  '\u0000',
  'a\u0000b',
  '\u0007\u001b[31m',
  '\r\n',
  '\ud800',
  '\udfff\ud800',
  '\ufeff',
  '\u202e',
  'caf\u00e9',
  '\u2603 \ud83d\ude00',
  '%',
  '%zz',
  '%00',
  '%C0%AE',
  '"',
  "'",
  '<script>alert(1)</script>',
  '${HOME}',
  '`id`',
  '$(id)',
  ';rm -rf /',
  '*',
  '?',
  '#',
  '&',
  '=',
  '+',
] as const;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.~ /\\:;,"\'{}[]()<>|!?*&^%$#@=+`';

/** A code point from anywhere: ASCII mostly, then Latin, CJK, astral, controls and lone surrogates. */
const randomChar = (rng: Rng): string => {
  const kind = rng();
  if (kind < 0.6) return ALPHABET[randInt(rng, 0, ALPHABET.length - 1)] as string;
  if (kind < 0.7) return String.fromCharCode(randInt(rng, 0, 0x1f));
  if (kind < 0.8) return String.fromCharCode(randInt(rng, 0xa0, 0x7ff));
  if (kind < 0.9) return String.fromCharCode(randInt(rng, 0x4e00, 0x9fff));
  if (kind < 0.96) return String.fromCodePoint(randInt(rng, 0x1f300, 0x1faff));
  return String.fromCharCode(randInt(rng, 0xd800, 0xdfff));
};

export const randomString = (rng: Rng, maxLength = 24): string => {
  const length = randInt(rng, 0, maxLength);
  let text = '';
  for (let i = 0; i < length; i += 1) text += randomChar(rng);
  return text;
};

/** A nasty string, a random one, or occasionally a huge one. */
export const hostileString = (rng: Rng): string => {
  const kind = rng();
  if (kind < 0.45) return pick(rng, NASTY_STRINGS);
  if (kind < 0.93) return randomString(rng);
  return pick(rng, ['x', '\u00e9', '\ud83d\ude00', '%00', '../']).repeat(randInt(rng, 100, 20_000));
};

const NUMBERS = [0, -0, 1, -1, 0.5, 1.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 53), 1e308, 5e-324, Number.MAX_SAFE_INTEGER] as const;

/** Any JSON value, `depth` levels deep at most. */
export const randomJson = (rng: Rng, depth = 3): unknown => {
  const kind = randInt(rng, 0, depth > 0 ? 7 : 4);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return chance(rng, 0.5);
    case 2:
      return chance(rng, 0.5) ? pick(rng, NUMBERS) : randInt(rng, -100_000, 100_000);
    case 3:
    case 4:
      return hostileString(rng);
    case 5:
      return Array.from({ length: randInt(rng, 0, 4) }, () => randomJson(rng, depth - 1));
    default: {
      const object: Record<string, unknown> = {};
      for (let i = randInt(rng, 0, 4); i > 0; i -= 1) object[chance(rng, 0.3) ? pick(rng, NASTY_STRINGS) : randomString(rng, 12)] = randomJson(rng, depth - 1);
      return object;
    }
  }
};

/** `[[[...]]]` or `{"a":{"a":...}}`, `levels` deep, as JSON text (too deep for any recursive walker). */
export const deeplyNestedJson = (rng: Rng, levels: number): string =>
  chance(rng, 0.5) ? `${'['.repeat(levels)}${']'.repeat(levels)}` : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/**
 * JSON text holding a key JSON.stringify cannot write: `__proto__` (an own key once parsed) or
 * `constructor.prototype`, the shapes of a prototype-pollution attempt.
 */
export const prototypeKeysJson = (rng: Rng, inner: Record<string, unknown>): string => {
  const payload = JSON.stringify(inner).slice(1, -1);
  const attack = pick(rng, [
    `"__proto__": {"polluted": true, "window_minutes": 5}`,
    `"constructor": {"prototype": {"polluted": true}}`,
    `"__proto__": null`,
    `"__proto__": []`,
  ]);
  return `{${payload}${payload === '' ? '' : ','}${attack}}`;
};

/**
 * A damaged JSON text, and where a parser must first find it wrong when that is known: from
 * `errorFrom` to `errorTo` (offsets; both absent when the damage may leave valid JSON).
 */
export interface Damaged {
  readonly text: string;
  readonly how: string;
  readonly errorFrom?: number;
  readonly errorTo?: number;
}

const at = (text: string, how: string, errorFrom?: number, errorTo = errorFrom): Damaged =>
  errorFrom === undefined ? { text, how } : { text, how, errorFrom, errorTo: errorTo ?? errorFrom };

/**
 * Where a mistake made at `where` may be placed: a `}` or `]` right after a comma makes that comma
 * a trailing one, and the comma is where it is reported.
 */
const fromTrailingComma = (text: string, where: number): number => {
  if (text[where] !== '}' && text[where] !== ']') return where;
  let before = where - 1;
  while (before >= 0 && /\s/.test(text[before] as string)) before -= 1;
  return text[before] === ',' ? before : where;
};

/** One way of damaging a JSON text (a pretty-printed object): cut, byte flips, junk, comments, doubled keys, a BOM, non-JSON numbers. */
export const damageJsonText = (rng: Rng, text: string): Damaged => {
  const where = randInt(rng, 0, Math.max(0, text.length - 1));
  switch (randInt(rng, 0, 10)) {
    case 0:
      // Every proper prefix of a JSON object is wrong only where it ends.
      return at(text.slice(0, where), `truncated at ${where}`, where);
    case 1: {
      const damaged = `${text.slice(0, where)}${randomChar(rng)}${text.slice(where + 1)}`;
      return at(damaged, `character ${where} replaced`, fromTrailingComma(damaged, where), Number.MAX_SAFE_INTEGER);
    }
    case 2: {
      const damaged = `${text.slice(0, where)}${pick(rng, ['//', '/*', '#', ',', '}', ']', ':', '"', '\\'])}${text.slice(where)}`;
      return at(damaged, `junk inserted at ${where}`, fromTrailingComma(damaged, where), Number.MAX_SAFE_INTEGER);
    }
    case 3: {
      const damaged = text.replace('{', '{\n  // a comment\n');
      return at(damaged, 'comment', damaged.indexOf('/'));
    }
    case 4: {
      const number = /\d+/.exec(text);
      if (!number) return at(text, 'no number to damage');
      const bad = pick(rng, ['NaN', 'Infinity', '-Infinity', '0x1F', '01', '+1', '1.', '.5', '1e']);
      return at(`${text.slice(0, number.index)}${bad}${text.slice(number.index + number[0].length)}`, `non-JSON number ${bad}`, number.index, number.index + bad.length);
    }
    case 5:
      return at(text.replace(/,\n(\s*)"/, ',\n$1"window_minutes": 5,\n$1"'), 'duplicate key');
    case 6:
      return at(`\ufeff${text}`, 'BOM');
    case 7: {
      const damaged = text.replace(/\s*}\s*$/, ',\n}\n');
      // Placed at the comma itself, not at the bracket on the next line.
      return damaged === text || !text.includes('"') ? at(damaged, 'trailing comma') : at(damaged, 'trailing comma', damaged.lastIndexOf(','));
    }
    case 8:
      return text.includes('"') ? at(text.replaceAll('"', "'"), 'single quotes', text.indexOf('"')) : at(text, 'nothing to quote');
    case 9:
      return at(`${text}${pick(rng, ['x', '{}', '\u0000', '\n\n]'])}`, 'junk after the document', text.length, text.length + 3);
    default:
      return at('', 'empty file', 0);
  }
};
