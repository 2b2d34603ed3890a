import { ForwardBitReader } from './bit-reader.js';
import { ZstdError } from './common.js';

/**
 * FSE (tANS) decoding tables (RFC 8878 4.1). A table has 2^accuracyLog states; each state names
 * the symbol it decodes and how to reach the next state: read `bits[state]` bits and add
 * `baselines[state]`.
 */
export interface FseTable {
  readonly accuracyLog: number;
  readonly symbols: Uint8Array;
  readonly bits: Uint8Array;
  readonly baselines: Uint16Array;
}

/** A normalized distribution: `counts[symbol]` states out of 2^accuracyLog, -1 meaning "less than 1" (one state). */
export interface FseDistribution {
  readonly accuracyLog: number;
  readonly counts: Int16Array;
}

/** Highest set bit of a positive integer (floor of log2). */
const highBit = (value: number): number => 31 - Math.clz32(value);

/**
 * Reads an FSE table description (RFC 8878 4.1.1) from `bytes[start, end)`: the distribution,
 * and how many bytes it took (it ends on a byte boundary).
 */
export const readFseDistribution = (
  bytes: Uint8Array,
  start: number,
  end: number,
  maxSymbol: number,
  maxAccuracyLog: number,
  what: string,
): { distribution: FseDistribution; size: number } => {
  const reader = new ForwardBitReader(bytes, start, end, `${what} table description`);
  const accuracyLog = reader.read(4) + 5;
  if (accuracyLog > maxAccuracyLog) throw new ZstdError(`zstd: ${what} table accuracy log ${accuracyLog} exceeds the ${maxAccuracyLog} maximum`);
  const counts = new Int16Array(maxSymbol + 1);
  let remaining = 1 << accuracyLog;
  let symbol = 0;
  while (remaining > 0) {
    if (symbol > maxSymbol) throw new ZstdError(`zstd: ${what} table describes more than ${maxSymbol + 1} symbols`);
    // The value is 0..remaining+1 (a probability of -1..remaining). It takes `width` bits, but the
    // smallest values are written with one bit less: the ones whose low width-1 bits stay below
    // `shortValues`, a count chosen so that no width-bit pattern goes to waste.
    const maxValue = remaining + 1;
    const width = highBit(maxValue) + 1;
    const shortValues = (1 << width) - 1 - maxValue;
    const peeked = reader.peek(width);
    const low = peeked & ((1 << (width - 1)) - 1);
    let value: number;
    if (low < shortValues) {
      value = low;
      reader.skip(width - 1);
    } else {
      value = peeked >= 1 << (width - 1) ? peeked - shortValues : peeked;
      reader.skip(width);
    }
    const probability = value - 1;
    counts[symbol++] = probability;
    remaining -= probability === -1 ? 1 : probability;
    if (probability === 0) {
      // A zero is followed by 2-bit counts of further zeros; 3 means "and another count follows".
      let repeat: number;
      do {
        repeat = reader.read(2);
        symbol += repeat;
      } while (repeat === 3);
      if (symbol > maxSymbol + 1) throw new ZstdError(`zstd: ${what} table describes more than ${maxSymbol + 1} symbols`);
    }
  }
  // `remaining` cannot go below 0: a value never exceeds what is left to distribute.
  return { distribution: { accuracyLog, counts: counts.subarray(0, symbol) }, size: reader.bytesUsed() };
};

/** Builds the decoding table of a distribution (RFC 8878 4.1.1, "From normalized distribution to decoding tables"). */
export const buildFseTable = ({ accuracyLog, counts }: FseDistribution, what: string): FseTable => {
  const size = 1 << accuracyLog;
  const symbols = new Uint8Array(size);
  const bits = new Uint8Array(size);
  const baselines = new Uint16Array(size);
  // "Less than 1" symbols take one state each, from the top of the table down.
  let highest = size - 1;
  for (let symbol = 0; symbol < counts.length; symbol++) {
    if (counts[symbol] === -1) symbols[highest--] = symbol;
  }
  // The others are spread over the remaining states with a fixed odd step, skipping the top ones.
  const step = (size >>> 1) + (size >>> 3) + 3;
  const mask = size - 1;
  let position = 0;
  for (let symbol = 0; symbol < counts.length; symbol++) {
    const count = counts[symbol] ?? 0;
    for (let i = 0; i < count; i++) {
      symbols[position] = symbol;
      do position = (position + step) & mask;
      while (position > highest);
    }
  }
  if (position !== 0) throw new ZstdError(`zstd: invalid ${what} table distribution`);
  // Number each symbol's n states n, n+1, ..., 2n-1 in state order. State number x reads
  // log - highBit(x) bits (the lowest states one bit more than the rest), and the ranges of next
  // states it reaches, (x << bits) - size onwards, come out as the RFC hands them: first to the
  // states reading fewer bits, then to the others, tiling the whole table.
  const next = new Uint16Array(counts.length);
  for (let symbol = 0; symbol < counts.length; symbol++) {
    const count = counts[symbol] ?? 0;
    next[symbol] = count === -1 ? 1 : count;
  }
  for (let state = 0; state < size; state++) {
    const symbol = symbols[state] ?? 0;
    const x = next[symbol] ?? 1;
    next[symbol] = x + 1;
    const width = accuracyLog - highBit(x);
    bits[state] = width;
    baselines[state] = (x << width) - size;
  }
  return { accuracyLog, symbols, bits, baselines };
};

/** The one-state table of RLE mode: every sequence uses `symbol`, and no bits are read. */
export const rleFseTable = (symbol: number): FseTable => ({
  accuracyLog: 0,
  symbols: Uint8Array.of(symbol),
  bits: new Uint8Array(1),
  baselines: new Uint16Array(1),
});
