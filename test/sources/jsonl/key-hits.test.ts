import { describe, expect, it } from 'vitest';
import { createKeyScanner } from '../../../src/sources/internal/key-hits.js';
import { createLineSplitter, OVERSIZED_KEYS } from '../../../src/sources/internal/lines.js';

const KEYS = [Buffer.from('"timestamp":"'), Buffer.from('"toolUseResult":')];
const line = '{"type":"user","message":{"content":"' + 'x'.repeat(300) + '"},"timestamp":"2026-03-10T14:00:05.000Z","toolUseResult":{"stdout":"' + 'y'.repeat(300) + '"}}';

describe('createKeyScanner', () => {
  it('finds each key once with its offset and value, however the line is cut', () => {
    const whole = Buffer.from(line);
    for (const size of [1, 2, 7, 13, 64, 97, 1000]) {
      const scanner = createKeyScanner(KEYS);
      for (let at = 0; at < whole.length; at += size) scanner.push(whole.subarray(at, at + size));
      const hits = scanner.finish();
      expect(hits.map((hit) => [hit.key, hit.offset])).toEqual([
        [0, line.indexOf('"timestamp"')],
        [1, line.indexOf('"toolUseResult"')],
      ]);
      expect(hits[0]?.after.toString().startsWith('2026-03-10T14:00:05.000Z"')).toBe(true);
    }
  });

  it('keeps the first and last hits of a key repeated many times', () => {
    const scanner = createKeyScanner(KEYS);
    for (let i = 0; i < 100; i++) scanner.push(Buffer.from(`"timestamp":"${i}",`));
    const values = scanner.finish().map((hit) => hit.after.toString().split('"')[0]);
    expect(values).toEqual(['0', '1', '2', '3', '96', '97', '98', '99']);
  });
});

describe('an oversized line', () => {
  it('carries the hits of its keys from the middle of the line', () => {
    const splitter = createLineSplitter(0, 100);
    const whole = Buffer.from(`${line}\n`);
    const items = [];
    for (let at = 0; at < whole.length; at += 50) items.push(...splitter.push(whole.subarray(at, at + 50)));
    const item = items[0];
    expect(item?.kind).toBe('oversized');
    if (item?.kind !== 'oversized') return;
    expect(item.keys.map((hit) => hit.key)).toEqual([OVERSIZED_KEYS.timestamp, OVERSIZED_KEYS.toolUseResult]);
    expect(item.keys[0]?.offset).toBe(line.indexOf('"timestamp"'));
  });
});
