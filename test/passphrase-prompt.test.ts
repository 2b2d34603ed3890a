import { describe, expect, it } from 'vitest';
import { applyKeys, EMPTY_INPUT } from '../src/util/prompt.js';

const type = (...chunks: string[]) => chunks.reduce(applyKeys, EMPTY_INPUT);

describe('applyKeys (hidden input)', () => {
  it('collects characters until Enter', () => {
    expect(type('secret pass', 'phrase\r')).toEqual({ value: 'secret passphrase', status: 'done' });
    expect(type('abc\n')).toEqual({ value: 'abc', status: 'done' });
    expect(type('abc')).toEqual({ value: 'abc', status: 'typing' });
  });

  it('edits with Backspace and Ctrl-U, ignores arrow keys', () => {
    expect(type('abcd\u007f\u007fx\r')).toEqual({ value: 'abx', status: 'done' });
    expect(type('junk\u0015good\r')).toEqual({ value: 'good', status: 'done' });
    expect(type('a\u001b[Db\u001bOAc\r')).toEqual({ value: 'abc', status: 'done' });
    expect(type('\u007f\u007fok\r')).toEqual({ value: 'ok', status: 'done' });
  });

  it('keeps multi-byte characters whole', () => {
    expect(type('pässwörd✓\u007f\r')).toEqual({ value: 'pässwörd', status: 'done' });
  });

  it('cancels on Ctrl-C, and on Ctrl-D at an empty line', () => {
    expect(type('abc\u0003')).toEqual({ value: '', status: 'cancelled' });
    expect(type('\u0004')).toEqual({ value: '', status: 'cancelled' });
    expect(type('a\u0004b\r')).toEqual({ value: 'ab', status: 'done' });
  });
});
