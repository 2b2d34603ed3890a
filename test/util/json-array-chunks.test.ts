import { describe, expect, it } from 'vitest';
import { jsonArrayChunks } from '../../src/util/json-array-chunks.js';

const joined = <T>(items: readonly T[], toValue: (item: T) => unknown = (item) => item): string => [...jsonArrayChunks(items, toValue)].join('');

describe('jsonArrayChunks', () => {
  it('writes what JSON.stringify(values, null, 2) writes, byte for byte', () => {
    const items = [
      { id: 'a', text: 'line one\nline two "quoted" \\ back\u2028', nested: { list: [1, [], {}, [{ deep: null }]], empty: '' } },
      { id: 'b', value: -0.5, big: 1e21, unicode: 'é 😀', missing: undefined, flag: false },
      [],
      {},
      'plain',
      null,
    ];
    expect(joined(items)).toBe(JSON.stringify(items, null, 2));
  });

  it('writes [] for no items, as JSON.stringify does', () => {
    expect(joined([])).toBe('[]');
  });

  it('builds each value when its turn comes (toValue), null where a value has no JSON, as in an array', () => {
    const calls: number[] = [];
    const text = joined([1, 2, 3], (n) => {
      calls.push(n);
      return n === 2 ? undefined : { n };
    });
    expect(calls).toEqual([1, 2, 3]);
    expect(text).toBe(JSON.stringify([{ n: 1 }, undefined, { n: 3 }], null, 2));
  });

  it('hands out chunks of a bounded number of values for a long listing, never the whole text at once', () => {
    const items = Array.from({ length: 2_000 }, (_, i) => ({ id: i, text: 'x'.repeat(500) }));
    const chunks = [...jsonArrayChunks(items, (item) => item)];
    expect(chunks.length).toBeGreaterThan(3);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(300 * 1024);
    expect(chunks.join('')).toBe(JSON.stringify(items, null, 2));
  });

  it('builds the values of one batch at a time, not the whole listing before the first chunk', () => {
    let built = 0;
    const chunks = jsonArrayChunks(
      Array.from({ length: 200 }, (_, i) => i),
      (i) => {
        built += 1;
        return { i };
      },
    );
    chunks.next();
    expect(built).toBeGreaterThan(0);
    expect(built).toBeLessThanOrEqual(64);
  });

  it('matches JSON.stringify on random JSON values (seeded)', () => {
    let seed = 7;
    const random = (): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const STRINGS = ['', 'a', 'two\nlines', 'tab\t"q"', '\\', 'é😀', '\u0000\u001f', '  indented\n  text'];
    const value = (depth: number): unknown => {
      const kind = Math.floor(random() * (depth > 3 ? 4 : 6));
      if (kind === 0) return null;
      if (kind === 1) return random() < 0.5;
      if (kind === 2) return Math.round((random() - 0.5) * 1e6) / 100;
      if (kind === 3) return STRINGS[Math.floor(random() * STRINGS.length)];
      if (kind === 4) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`k${i}${STRINGS[i % STRINGS.length]}`, value(depth + 1)]));
    };
    for (let run = 0; run < 300; run += 1) {
      const values = Array.from({ length: Math.floor(random() * 150) }, () => value(0));
      expect(joined(values)).toBe(JSON.stringify(values, null, 2));
    }
  });
});
