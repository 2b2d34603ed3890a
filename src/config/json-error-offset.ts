/**
 * Where a JSON text first goes wrong. V8's JSON.parse says "at position N" for most mistakes but
 * not for an unexpected token (`"window_minutes": NaN`, a comment, a stray letter): there it
 * quotes a stretch of the file instead, which may hold a secret and spans lines. This scanner
 * finds the offset itself. Iterative (any nesting depth), RFC 8259 grammar, no values built.
 */

type Expect = 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'comma-or-close' | 'end';

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const isDigit = (char: string | undefined): boolean => char !== undefined && char >= '0' && char <= '9';
const isHex = (char: string | undefined): boolean => char !== undefined && /^[0-9a-fA-F]$/.test(char);

/** End of the string starting at `start` (its opening quote), or the offset of what is wrong in it, as `{ error }`. */
const scanString = (text: string, start: number): number | { error: number } => {
  for (let i = start + 1; i < text.length; i += 1) {
    const char = text[i] as string;
    if (char === '"') return i + 1;
    if (char.charCodeAt(0) < 0x20) return { error: i };
    if (char !== '\\') continue;
    const escape = text[i + 1];
    if (escape === undefined) return { error: text.length };
    if (escape === 'u') {
      for (let k = i + 2; k < i + 6; k += 1) if (!isHex(text[k])) return { error: Math.min(k, text.length) };
      i += 5;
    } else if (ESCAPES.has(escape)) i += 1;
    else return { error: i + 1 };
  }
  return { error: text.length };
};

/** End of the number starting at `start`, or the offset of the character that breaks it. */
const scanNumber = (text: string, start: number): number | { error: number } => {
  let i = start;
  const digits = (): boolean => {
    if (!isDigit(text[i])) return false;
    while (isDigit(text[i])) i += 1;
    return true;
  };
  if (text[i] === '-') i += 1;
  if (text[i] === '0') i += 1;
  else if (!digits()) return { error: Math.min(i, text.length) };
  if (text[i] === '.') {
    i += 1;
    if (!digits()) return { error: Math.min(i, text.length) };
  }
  if (text[i] === 'e' || text[i] === 'E') {
    i += 1;
    if (text[i] === '+' || text[i] === '-') i += 1;
    if (!digits()) return { error: Math.min(i, text.length) };
  }
  return i;
};

/** End of `true`/`false`/`null` at `start`, or the offset of the first character that differs. */
const scanLiteral = (text: string, start: number): number | { error: number } => {
  const literal = ['true', 'false', 'null'].find((word) => word[0] === text[start]);
  if (literal === undefined) return { error: start };
  for (let k = 0; k < literal.length; k += 1) if (text[start + k] !== literal[k]) return { error: Math.min(start + k, text.length) };
  return start + literal.length;
};

/** The offset (UTF-16 units) of the first character that makes `text` invalid JSON (`text.length`: it ends too soon), or undefined when it is valid. */
export const jsonErrorOffset = (text: string): number | undefined => {
  const open: ('{' | '[')[] = [];
  let expect: Expect = 'value';
  let i = 0;
  const afterValue = (): Expect => (open.length === 0 ? 'end' : 'comma-or-close');
  for (;;) {
    while (i < text.length && WHITESPACE.has(text[i] as string)) i += 1;
    if (i >= text.length) return expect === 'end' ? undefined : text.length;
    const char = text[i] as string;
    if (expect === 'end') return i;
    if (expect === 'colon') {
      if (char !== ':') return i;
      i += 1;
      expect = 'value';
      continue;
    }
    if (expect === 'comma-or-close') {
      const top = open.at(-1);
      if (char === ',') expect = top === '{' ? 'key' : 'value';
      else if (char === (top === '{' ? '}' : ']')) {
        open.pop();
        expect = afterValue();
      } else return i;
      i += 1;
      continue;
    }
    if ((expect === 'key-or-close' && char === '}') || (expect === 'value-or-close' && char === ']')) {
      open.pop();
      i += 1;
      expect = afterValue();
      continue;
    }
    if (expect === 'key' || expect === 'key-or-close') {
      if (char !== '"') return i;
      const end = scanString(text, i);
      if (typeof end !== 'number') return end.error;
      i = end;
      expect = 'colon';
      continue;
    }
    // A value.
    if (char === '{' || char === '[') {
      open.push(char);
      i += 1;
      expect = char === '{' ? 'key-or-close' : 'value-or-close';
      continue;
    }
    const end = char === '"' ? scanString(text, i) : char === '-' || isDigit(char) ? scanNumber(text, i) : scanLiteral(text, i);
    if (typeof end !== 'number') return end.error;
    i = end;
    expect = afterValue();
  }
};
