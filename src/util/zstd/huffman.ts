import { BackwardBitReader } from './bit-reader.js';
import { ZstdError, readU16, tally, type ZstdTrace } from './common.js';
import { buildFseTable, readFseDistribution } from './fse.js';

/**
 * Huffman-coded literals (RFC 8878 4.2): the tree description, and decoding 1 or 4 streams.
 *
 * The decoding table has 2^maxBits entries, indexed by the next maxBits bits of the stream: each
 * holds `symbol | codeLength << 8`, a code of length L filling 2^(maxBits-L) consecutive entries.
 */
export interface HuffmanTable {
  readonly maxBits: number;
  readonly entries: Uint16Array;
}

const MAX_CODE_BITS = 11;
/** Weights listed in a description, at most: the 256th symbol's weight is always implied. */
const MAX_LISTED_WEIGHTS = 255;
/** FSE-compressed weights use tables of at most 2^6 states and weights of at most 11. */
const WEIGHTS_MAX_ACCURACY_LOG = 6;
const MAX_WEIGHT = MAX_CODE_BITS;

/**
 * Reads a Huffman tree description (RFC 8878 4.2.1) from `bytes[start, end)`: the decoding
 * table, and how many bytes the description took.
 */
export const readHuffmanTable = (bytes: Uint8Array, start: number, end: number, trace?: ZstdTrace): { table: HuffmanTable; size: number } => {
  if (start >= end) throw new ZstdError('zstd: truncated input in Huffman tree description');
  const header = bytes[start] ?? 0;
  const weights = new Uint8Array(256);
  let listed: number;
  let size: number;
  if (header >= 128) {
    // Direct representation: 4 bits per weight, the first in the high half of each byte.
    tally(trace, 'huffman.weights.direct');
    listed = header - 127;
    size = 1 + ((listed + 1) >>> 1);
    if (start + size > end) throw new ZstdError('zstd: truncated input in Huffman tree description');
    for (let i = 0; i < listed; i++) {
      const byte = bytes[start + 1 + (i >>> 1)] ?? 0;
      weights[i] = i % 2 === 0 ? byte >>> 4 : byte & 15;
    }
  } else {
    tally(trace, 'huffman.weights.fse');
    size = 1 + header;
    if (header === 0) throw new ZstdError('zstd: empty Huffman tree description');
    if (start + size > end) throw new ZstdError('zstd: truncated input in Huffman tree description');
    listed = readCompressedWeights(bytes, start + 1, start + size, weights);
  }
  return { table: buildHuffmanTable(weights, listed), size };
};

/**
 * Decodes FSE-compressed weights into `weights`, returning how many. Two states share one table
 * and take turns; the stream holds no count: decoding stops when a state update needs bits the
 * stream no longer has, and the other state's symbol is the last weight (RFC 8878 4.2.1.2).
 */
const readCompressedWeights = (bytes: Uint8Array, start: number, end: number, weights: Uint8Array): number => {
  const { distribution, size } = readFseDistribution(bytes, start, end, MAX_WEIGHT, WEIGHTS_MAX_ACCURACY_LOG, 'Huffman weights');
  const { accuracyLog, symbols, bits, baselines } = buildFseTable(distribution, 'Huffman weights');
  const reader = new BackwardBitReader(bytes, start + size, end, 'Huffman weights');
  let state1 = reader.read(accuracyLog);
  let state2 = reader.read(accuracyLog);
  let count = 0;
  for (;;) {
    // Each turn may write two weights (its own, and the other state's when the stream ends).
    if (count + 2 > MAX_LISTED_WEIGHTS) throw new ZstdError('zstd: Huffman tree description lists more than 255 weights');
    weights[count++] = symbols[state1] ?? 0;
    state1 = (baselines[state1] ?? 0) + reader.read(bits[state1] ?? 0);
    if (reader.overflowed()) {
      weights[count++] = symbols[state2] ?? 0;
      return count;
    }
    if (count + 2 > MAX_LISTED_WEIGHTS) throw new ZstdError('zstd: Huffman tree description lists more than 255 weights');
    weights[count++] = symbols[state2] ?? 0;
    state2 = (baselines[state2] ?? 0) + reader.read(bits[state2] ?? 0);
    if (reader.overflowed()) {
      weights[count++] = symbols[state1] ?? 0;
      return count;
    }
  }
};

/**
 * Completes the listed weights with the implied last one and builds the decoding table. Codes are
 * handed out from the lowest weight (longest code) up, symbols in order within a weight.
 */
const buildHuffmanTable = (weights: Uint8Array, listed: number): HuffmanTable => {
  let total = 0;
  for (let i = 0; i < listed; i++) {
    const weight = weights[i] ?? 0;
    if (weight > MAX_WEIGHT) throw new ZstdError(`zstd: Huffman weight ${weight} exceeds the ${MAX_WEIGHT} maximum`);
    if (weight > 0) total += 1 << (weight - 1);
  }
  if (total === 0) throw new ZstdError('zstd: Huffman tree description has no symbols');
  // The last weight tops the total up to the next power of two, which sets the tree's depth.
  const maxBits = 32 - Math.clz32(total);
  if (maxBits > MAX_CODE_BITS) throw new ZstdError(`zstd: Huffman codes of ${maxBits} bits exceed the ${MAX_CODE_BITS} maximum`);
  const rest = (1 << maxBits) - total;
  if ((rest & (rest - 1)) !== 0) throw new ZstdError('zstd: Huffman weights do not complete to a power of two');
  const symbolCount = listed + 1;
  weights[listed] = 32 - Math.clz32(rest);

  // Where each weight's codes start in the table.
  const rankCounts = new Uint16Array(MAX_CODE_BITS + 2);
  for (let symbol = 0; symbol < symbolCount; symbol++) {
    const weight = weights[symbol] ?? 0;
    rankCounts[weight] = (rankCounts[weight] ?? 0) + 1;
  }
  // The two longest codes are siblings, so an odd count (or a single one) of weight 1 is corrupt.
  const weightOnes = rankCounts[1] ?? 0;
  if (weightOnes < 2 || weightOnes % 2 !== 0) throw new ZstdError('zstd: invalid Huffman tree description');
  const rankStarts = new Uint32Array(MAX_CODE_BITS + 2);
  let next = 0;
  for (let weight = 1; weight <= maxBits; weight++) {
    rankStarts[weight] = next;
    next += (rankCounts[weight] ?? 0) << (weight - 1);
  }

  const entries = new Uint16Array(1 << maxBits);
  for (let symbol = 0; symbol < symbolCount; symbol++) {
    const weight = weights[symbol] ?? 0;
    if (weight === 0) continue;
    const from = rankStarts[weight] ?? 0;
    const span = 1 << (weight - 1);
    rankStarts[weight] = from + span;
    entries.fill(symbol | ((maxBits + 1 - weight) << 8), from, from + span);
  }
  return { maxBits, entries };
};

/** Decodes one Huffman stream, `bytes[start, end)`, into `out[outStart, outEnd)`; the stream must be consumed exactly. */
const decodeStream = (table: HuffmanTable, bytes: Uint8Array, start: number, end: number, out: Uint8Array, outStart: number, outEnd: number): void => {
  const reader = new BackwardBitReader(bytes, start, end, 'Huffman');
  const { maxBits, entries } = table;
  const indexMask = (1 << maxBits) - 1;
  let i = outStart;
  // Fast path: load the 32 bits that end at the byte holding the next bit (25 to 32 of them are
  // unread) and decode every symbol whose widest possible code still lies within them.
  let bitPos = reader.bitPos;
  while (bitPos >= 25 && i < outEnd) {
    const topByte = (bitPos - 1) >>> 3;
    const at = start + topByte - 3;
    const word = (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16) | ((bytes[at + 3] ?? 0) << 24);
    let unread = bitPos - (topByte - 3) * 8;
    do {
      const entry = entries[(word >>> (unread - maxBits)) & indexMask] ?? 0;
      out[i++] = entry; // a byte array keeps the low 8 bits: the symbol
      unread -= entry >>> 8;
    } while (unread >= maxBits && i < outEnd);
    bitPos = (topByte - 3) * 8 + unread;
  }
  // The last few bytes, where a code may be shorter than the bits left to peek at.
  reader.bitPos = bitPos;
  for (; i < outEnd; i++) {
    const entry = entries[reader.peek(maxBits)] ?? 0;
    out[i] = entry;
    reader.bitPos -= entry >>> 8;
  }
  if (!reader.finishedExactly()) throw new ZstdError('zstd: Huffman stream does not end where its literals do');
};

/**
 * Decodes `regenerated` literals from the Huffman streams in `bytes[start, end)` into `out`
 * (from index 0): one stream, or four after a 6-byte jump table of the first three's sizes,
 * each four but the last producing a quarter of the literals, rounded up (RFC 8878 3.1.1.3.1.6).
 */
export const decodeHuffmanLiterals = (
  table: HuffmanTable,
  bytes: Uint8Array,
  start: number,
  end: number,
  fourStreams: boolean,
  regenerated: number,
  out: Uint8Array,
): void => {
  if (!fourStreams) {
    decodeStream(table, bytes, start, end, out, 0, regenerated);
    return;
  }
  if (end - start < 10) throw new ZstdError('zstd: truncated input in Huffman jump table');
  const size1 = readU16(bytes, start);
  const size2 = readU16(bytes, start + 2);
  const size3 = readU16(bytes, start + 4);
  const start1 = start + 6;
  const start2 = start1 + size1;
  const start3 = start2 + size2;
  const start4 = start3 + size3;
  if (start4 >= end) throw new ZstdError('zstd: Huffman jump table exceeds the literals section');
  const quarter = Math.ceil(regenerated / 4);
  if (quarter * 3 > regenerated) throw new ZstdError(`zstd: ${regenerated} literals are too few for four Huffman streams`);
  decodeStream(table, bytes, start1, start2, out, 0, quarter);
  decodeStream(table, bytes, start2, start3, out, quarter, 2 * quarter);
  decodeStream(table, bytes, start3, start4, out, 2 * quarter, 3 * quarter);
  decodeStream(table, bytes, start4, end, out, 3 * quarter, regenerated);
};
