/**
 * Numbers a rewrite of the config file would change. The file is read with JSON.parse and written
 * with JSON.stringify, so every number passes through a double: `12345678901234567890` would be
 * saved as `12345678901234567000` and `1e999` as `null`, in keys agentwatch does not even use.
 * A write that would do that is not made: the user's keys are kept as they wrote them
 * (docs/configuration.md).
 * `1.0` -> `1` or `1E3` -> `1000` are the same number written differently, and are fine.
 */

export interface NumberLoss {
  /** Offset of the number in the text. */
  readonly offset: number;
  readonly literal: string;
  /** What a rewrite would put in its place. */
  readonly written: string;
}

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const DECIMAL = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** A decimal literal as `digits` and `exponent`, zeros trimmed, so equal values compare equal (`-0` is 0). */
const canonical = (literal: string): string => {
  const match = DECIMAL.exec(literal);
  if (!match) return literal;
  const [, whole = '', fraction = '', exponent = '0'] = match;
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (digits === '') return '0';
  const trimmed = digits.replace(/0+$/, '');
  const scale = Number(exponent) - fraction.length + (digits.length - trimmed.length);
  return `${literal.startsWith('-') ? '-' : ''}${trimmed}e${scale}`;
};

/** The first number of a valid JSON text that JSON.stringify(JSON.parse(text)) would not write back as the same value. */
export const firstNumberLoss = (text: string): NumberLoss | undefined => {
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] as string;
    if (char === '"') {
      // Skip the string (keys included): its digits are text.
      for (i += 1; i < text.length && text[i] !== '"'; i += 1) if (text[i] === '\\') i += 1;
      continue;
    }
    if (char !== '-' && (char < '0' || char > '9')) continue;
    NUMBER.lastIndex = i;
    const literal = NUMBER.exec(text)?.[0];
    if (literal === undefined) continue;
    const value = Number(literal);
    const written = Number.isFinite(value) ? String(value) : 'null';
    if (written === 'null' || canonical(written) !== canonical(literal)) return { offset: i, literal, written };
    i += literal.length - 1;
  }
  return undefined;
};
