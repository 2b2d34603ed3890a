import { describe, expect, it } from 'vitest';
import { rfc3339, timeOf, UNKNOWN_TIME } from '../../src/core/time.js';

describe('rfc3339', () => {
  it('writes exactly what Date.prototype.toISOString writes, from 1970 to 9999 and beyond', () => {
    const edges = [
      1,
      999,
      1000,
      86_399_999,
      86_400_000,
      1.5,
      1_795_176_000_000.7,
      Date.parse('1972-02-29T12:00:00.000Z'),
      Date.parse('1972-12-31T23:59:59.999Z'),
      Date.parse('2000-02-29T23:59:59.999Z'),
      Date.parse('2000-03-01T00:00:00.000Z'),
      Date.parse('2100-02-28T23:59:59.999Z'),
      Date.parse('2100-03-01T00:00:00.000Z'),
      Date.parse('9999-12-31T23:59:59.999Z'),
      Date.parse('9999-12-31T23:59:59.999Z') + 1,
      8.64e15,
    ];
    for (const ms of edges) expect(rfc3339(ms), String(ms)).toBe(new Date(ms).toISOString());
    // A deterministic spread over every day of the range (a linear congruential sequence).
    let seed = 12_345;
    const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let i = 0; i < 200_000; i += 1) {
      const ms = Math.floor(next() * 253_402_300_799_999) + (i % 7 === 0 ? next() : 0);
      if (rfc3339(ms) !== new Date(ms).toISOString()) expect(rfc3339(ms), String(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it("writes Go's zero time for an unknown time, which timeOf reads back as unknown", () => {
    for (const ms of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(rfc3339(ms)).toBe(UNKNOWN_TIME);
    expect(UNKNOWN_TIME).toBe('0001-01-01T00:00:00Z');
    for (const text of [UNKNOWN_TIME, '', 'junk', '1969-12-31T23:59:59.999Z']) expect(timeOf(text)).toBe(0);
    expect(timeOf(rfc3339(1_795_176_000_123))).toBe(1_795_176_000_123);
  });
});
