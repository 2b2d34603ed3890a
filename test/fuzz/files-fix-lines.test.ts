import { describe, expect, it } from 'vitest';
import { createLineSplitter, type LineItem } from '../../src/sources/internal/lines.js';

/**
 * Regression the incremental property found: a line over a cap below OVERSIZED_KEEP_BYTES kept as
 * its head only the bytes read up to where it crossed the cap, so what its head said (its type,
 * read by the parsers' `oversized`) depended on how the reads were cut.
 */
describe('an oversized line keeps its first bytes however the reads are cut', () => {
  it('with a cap under the bytes kept', () => {
    const line = `{"parentUuid":"${'p'.repeat(300)}","type":"user","timestamp":"2026-03-10T09:00:00.000Z"}`;
    const bytes = Buffer.from(`${line}\n`);
    const split = (chunk: number): LineItem[] => {
      const splitter = createLineSplitter(0, 200);
      const items: LineItem[] = [];
      for (let at = 0; at < bytes.length; at += chunk) items.push(...splitter.push(bytes.subarray(at, at + chunk)));
      return items;
    };
    const [whole] = split(bytes.length);
    expect(whole).toMatchObject({ kind: 'oversized', head: Buffer.from(line), tail: Buffer.from(line) });
    for (const chunk of [1, 7, 50, 199, 201]) expect(split(chunk), `chunks of ${chunk}`).toEqual([whole]);
  });
});
