/**
 * A reading of a JSON text that is not quite JSON: every mistake it can place, each at the
 * character that is wrong (a trailing comma at the comma, not at the bracket after it), and the
 * document as far as it could be read around them (for `doctor`, which reports what it can). It
 * reads past the usual mistakes of a hand-edited file (comments, trailing and missing commas,
 * single quotes, bare words, NaN) and stops at the first one it cannot read past.
 */

import { jsonErrorOffset } from './json-error-offset.js';

interface JsonProblem {
  /** Offset (UTF-16 units) of the character that is wrong; the text's length when it ends too soon. */
  readonly offset: number;
  readonly reason: string;
}

export interface LenientRead {
  readonly value: unknown;
  readonly problems: readonly JsonProblem[];
}

/** Deeper than this, the rest is not read (a valid file that deep is refused anyway, by depth.ts). */
const MAX_DEPTH = 200;
const MAX_PROBLEMS = 20;

/** Thrown to stop reading: the problem it stopped at is recorded already. */
class Stop extends Error {}

const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const LITERALS = ['true', 'false', 'null'] as const;
/** How many characters `word` and `literal` share from the start. */
const sharedStart = (word: string, literal: string): number => {
  let k = 0;
  while (k < literal.length && word[k] === literal[k]) k += 1;
  return k;
};
const BARE_WORD = /[A-Za-z_$][\w$.+-]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const NUMBER_LIKE = /[-+]?(?:NaN|Infinity|[\w.]+)(?:[eE][+-]?\d+)?/y;

export const readLenient = (text: string): LenientRead => {
  const problems: JsonProblem[] = [];
  let i = 0;
  // The top-level container, filled in place, so what was read before a stop is kept.
  let root: unknown;

  const problem = (offset: number, reason: string): void => {
    problems.push({ offset, reason });
    if (problems.length >= MAX_PROBLEMS) throw new Stop();
  };
  const stop = (offset: number, reason: string): never => {
    problem(offset, reason);
    throw new Stop();
  };
  const unexpected = (offset: number): never =>
    offset >= text.length ? stop(text.length, 'Unexpected end of JSON input') : stop(offset, `Unexpected character ${JSON.stringify(String.fromCodePoint(text.codePointAt(offset) ?? 0))}`);

  /** Whitespace, and comments (each one a mistake). */
  const skip = (): void => {
    for (;;) {
      const char = text[i];
      if (char === ' ' || char === '\t' || char === '\n' || char === '\r') i += 1;
      else if (char === '#' || (char === '/' && text[i + 1] === '/')) {
        problem(i, 'JSON has no comments');
        while (i < text.length && text[i] !== '\n') i += 1;
      } else if (char === '/' && text[i + 1] === '*') {
        problem(i, 'JSON has no comments');
        const end = text.indexOf('*/', i + 2);
        i = end === -1 ? text.length : end + 2;
      } else return;
    }
  };

  const string = (): string => {
    const quote = text[i] as string;
    if (quote === "'") problem(i, 'JSON strings take double quotes');
    let out = '';
    for (i += 1; i < text.length; i += 1) {
      const char = text[i] as string;
      if (char === quote) {
        i += 1;
        return out;
      }
      if (char === '\n' && quote === "'") break;
      if (char.charCodeAt(0) < 0x20) stop(i, 'a control character inside a string (write it escaped, as \\n or \\t)');
      if (char !== '\\') {
        out += char;
        continue;
      }
      const escape = text[i + 1];
      if (escape === 'u') {
        const hex = /^[0-9a-fA-F]{0,4}/.exec(text.slice(i + 2, i + 6))?.[0] ?? '';
        if (hex.length < 4) stop(Math.min(i + 2 + hex.length, text.length), 'a \\u escape takes four hex digits');
        out += String.fromCharCode(Number.parseInt(hex, 16));
        i += 5;
      } else if (escape !== undefined && ESCAPES[escape] !== undefined) {
        out += ESCAPES[escape];
        i += 1;
      } else if (escape === quote) {
        out += quote;
        i += 1;
      } else stop(i + 1, 'an unknown escape in a string');
    }
    return stop(Math.min(i, text.length), 'a string that does not end');
  };

  const word = (): unknown => {
    const start = i;
    for (const [literal, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(literal, i) && !/[\w$]/.test(text[i + literal.length] ?? '')) {
        i += literal.length;
        return value;
      }
    }
    const number = (NUMBER.lastIndex = i, NUMBER.exec(text));
    const sticky = (NUMBER_LIKE.lastIndex = i, NUMBER_LIKE.exec(text));
    // A number runs on into what cannot follow one (`01`, `1.`, `0x1F`): the whole of it is wrong.
    if (number && (!sticky || sticky[0].length <= number[0].length)) {
      i += number[0].length;
      return Number(number[0]);
    }
    if (sticky && /^[-+]?(?:NaN|Infinity|[\d.])/.test(sticky[0])) {
      // Placed where it stops being a number, as JSON.parse places it: `1x` at the x, `1e}` at the }.
      problem(start + (jsonErrorOffset(sticky[0]) ?? 0), /NaN|Infinity/.test(sticky[0]) ? 'NaN and Infinity are not JSON numbers' : `${sticky[0]} is not a JSON number`);
      i += sticky[0].length;
      return undefined;
    }
    const bare = (BARE_WORD.lastIndex = i, BARE_WORD.exec(text));
    if (bare) {
      // Placed where it stops being true, false or null (`trxe` at the x), as JSON.parse places it.
      const kept = Math.max(...LITERALS.map((literal) => sharedStart(bare[0], literal)));
      problem(start + kept, `Unexpected character ${JSON.stringify(text[start + kept])} (a bare word: text takes double quotes)`);
      i += bare[0].length;
      return bare[0];
    }
    // A minus sign is a number's start: what follows it is what is wrong.
    return unexpected(text[start] === '-' ? start + 1 : start);
  };

  /** A comma, or a missing one before what plainly starts the next item; false at the closing bracket. */
  const more = (close: string, next: (char: string | undefined) => boolean): boolean => {
    skip();
    const char = text[i];
    if (char === close) {
      i += 1;
      return false;
    }
    if (char === ',') {
      const comma = i;
      i += 1;
      skip();
      if (text[i] === close) {
        problem(comma, `a trailing comma (JSON takes none before ${close})`);
        i += 1;
        return false;
      }
      return true;
    }
    if (next(char)) {
      problem(i, `Expected ',' or '${close}'`);
      return true;
    }
    return unexpected(i);
  };

  const value = (depth: number): unknown => {
    if (depth > MAX_DEPTH) throw new Stop();
    skip();
    const char = text[i];
    if (char === '{') {
      i += 1;
      const object: Record<string, unknown> = {};
      if (depth === 0) root = object;
      skip();
      if (text[i] === '}') {
        i += 1;
        return object;
      }
      do {
        skip();
        const at = i;
        let key: string;
        if (text[i] === '"' || text[i] === "'") key = string();
        else {
          const bare = (BARE_WORD.lastIndex = i, BARE_WORD.exec(text));
          if (!bare) return unexpected(i);
          problem(at, 'Expected double-quoted property name');
          key = bare[0];
          i += bare[0].length;
        }
        skip();
        if (text[i] === ':') i += 1;
        else problem(i, "Expected ':' after property name");
        const inner = value(depth + 1);
        if (inner !== undefined) object[key] = inner;
      } while (more('}', (next) => next === '"' || next === "'"));
      return object;
    }
    if (char === '[') {
      i += 1;
      const array: unknown[] = [];
      if (depth === 0) root = array;
      skip();
      if (text[i] === ']') {
        i += 1;
        return array;
      }
      do array.push(value(depth + 1));
      while (more(']', (next) => next !== undefined && /["'{[\d-]/.test(next)));
      return array;
    }
    if (char === '"' || char === "'") return string();
    if (char === undefined) return unexpected(i);
    return word();
  };

  try {
    root = value(0);
    skip();
    if (i < text.length) problem(i, `Unexpected character ${JSON.stringify(String.fromCodePoint(text.codePointAt(i) ?? 0))} after the end of the document`);
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
  }
  return { value: root, problems };
};
