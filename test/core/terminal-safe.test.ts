import { describe, expect, it } from 'vitest';
import { hasUnsafeCharacters, terminalSafe, terminalSafeLine } from '../../src/core/terminal-safe.js';

const HOSTILE = 'a\u001b]52;c;cHduZWQ=\u0007b\u001b[2Jc\u001b]0;owned\u0007d\u009b2Je\u202ef\u200bg';

describe('terminalSafe', () => {
  it('shows escape sequences, C1 controls, bidi and zero-width characters escaped', () => {
    expect(terminalSafe(HOSTILE)).toBe('a\\x1b]52;c;cHduZWQ=\\x07b\\x1b[2Jc\\x1b]0;owned\\x07d\\x9b2Je\\u202ef\\u200bg');
  });

  it('covers DEL, isolates, marks, separators and the byte-order mark', () => {
    expect(terminalSafe('\u007f\u2066\u2069\u200e\u200f\u061c\u2028\u2060\ufeff\r')).toBe('\\x7f\\u2066\\u2069\\u200e\\u200f\\u061c\\u2028\\u2060\\ufeff\\x0d');
  });

  it('keeps newlines and tabs in a block, escapes them in a line', () => {
    expect(terminalSafe('a\tb\nc')).toBe('a\tb\nc');
    expect(terminalSafeLine('a\tb\nc')).toBe('a\\x09b\\x0ac');
  });

  it('keeps SGR colors only when asked, and nothing else of a sequence', () => {
    expect(terminalSafe('\u001b[1;33mhit\u001b[39m\u001b[2J', { colored: true })).toBe('\u001b[1;33mhit\u001b[39m\\x1b[2J');
    expect(terminalSafe('\u001b[1mhit')).toBe('\\x1b[1mhit');
  });

  it('leaves other text alone, emoji and right-to-left scripts included', () => {
    const text = 'naïve — 日本語 👩‍💻 שלום';
    expect(terminalSafe(text)).toBe(text);
    expect(hasUnsafeCharacters(text)).toBe(false);
    expect(hasUnsafeCharacters('x\u202ey')).toBe(true);
    expect(terminalSafe('ad\u200dmin')).toBe('ad\\u200dmin');
  });
});
