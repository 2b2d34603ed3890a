import { describe, expect, it } from 'vitest';
import { createLineSplitter, type LineItem } from '../../../src/sources/internal/lines.js';
import { skimTimestamp, skimType } from '../../../src/sources/internal/skim.js';

const texts = (items: readonly LineItem[]): (string | number)[] => items.map((i) => (i.kind === 'line' ? i.bytes.toString() : -i.length));

describe('createLineSplitter', () => {
  it('returns complete lines with the offset after each newline, leaving a partial tail unconsumed', () => {
    const s = createLineSplitter(100);
    const items = s.push(Buffer.from('a\nbb\ncc'));
    expect(texts(items)).toEqual(['a', 'bb']);
    expect(items.map((i) => i.end)).toEqual([102, 105]);
    expect(s.consumed()).toBe(105);
  });

  it('settles a last line without its newline only when it already holds a whole JSON object', () => {
    const whole = createLineSplitter(10);
    expect(texts(whole.push(Buffer.from('{"a":1}\n{"b":{"c":2}} ')))).toEqual(['{"a":1}']);
    const settled = whole.settle();
    expect(settled && texts([settled])).toEqual(['{"b":{"c":2}} ']);
    expect(settled?.end).toBe(32);
    expect(whole.consumed()).toBe(32);
    expect(whole.settle()).toBeUndefined();
    // A newline written after it is an empty line, not a second copy.
    expect(texts(whole.push(Buffer.from('\n{"d":3}\n')))).toEqual(['', '{"d":3}']);

    for (const half of ['{"a":1}\n{"b":{"c":2}', '{"a":1}\n{"b":"x}', '{"a":1}\n[1,2]', '{"a":1}\n"text}"']) {
      const s = createLineSplitter(0);
      s.push(Buffer.from(half));
      expect(s.settle()).toBeUndefined();
      expect(s.consumed()).toBe(8);
    }
  });

  it('joins a line split over several chunks and strips CRLF', () => {
    const s = createLineSplitter(0);
    expect(s.push(Buffer.from('{"a":'))).toEqual([]);
    expect(s.push(Buffer.from('1'))).toEqual([]);
    const items = s.push(Buffer.from('}\r\nx'));
    expect(texts(items)).toEqual(['{"a":1}']);
    expect(s.consumed()).toBe(9);
  });

  it('drops a UTF-8 byte-order mark at the start of the file only', () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const s = createLineSplitter(0);
    const items = s.push(Buffer.concat([bom, Buffer.from('{"a":1}\r\n'), bom, Buffer.from('x\n')]));
    expect(texts(items)).toEqual(['{"a":1}', '\ufeffx']);
    expect(items.map((i) => i.end)).toEqual([12, 17]);
    // Resuming mid-file: the line there is not the first one, whatever its bytes.
    expect(texts(createLineSplitter(12).push(Buffer.concat([bom, Buffer.from('y\n')])))).toEqual(['\ufeffy']);
  });

  it('reports a line over the cap once its newline arrives, without keeping its bytes, and goes on', () => {
    const s = createLineSplitter(0, 8);
    expect(s.push(Buffer.from('0123456789'))).toEqual([]);
    expect(s.push(Buffer.from('abcdef'))).toEqual([]);
    const items = s.push(Buffer.from('gh\nok\n'));
    expect(texts(items)).toEqual([-18, 'ok']);
    expect(s.consumed()).toBe(22);
  });

  it('keeps an exactly-at-cap line and keeps views valid after the caller reuses its buffer', () => {
    const s = createLineSplitter(0, 4);
    const chunk = Buffer.from('abcd\nef');
    const first = s.push(chunk);
    expect(texts(first)).toEqual(['abcd']);
    chunk.fill(0x7a);
    expect(texts(s.push(Buffer.from('\n')))).toEqual(['ef']);
  });
});

describe('skim', () => {
  it('finds the first type value and the next one after it', () => {
    const line = Buffer.from('{"timestamp":"2026-03-10T09:20:15.000Z","type":"response_item","payload":{"type":"reasoning"}}');
    const top = skimType(line);
    expect(top?.value).toBe('response_item');
    expect(skimType(line, top?.end)?.value).toBe('reasoning');
    expect(skimTimestamp(line)).toBe('2026-03-10T09:20:15.000Z');
    expect(skimType(Buffer.from('{"kind":1}'))).toBeUndefined();
  });
});
