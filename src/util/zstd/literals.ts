import { ZstdError, readU24, readU32, tally, type ZstdTrace } from './common.js';
import { decodeHuffmanLiterals, readHuffmanTable, type HuffmanTable } from './huffman.js';

/** A block's literals: `bytes[start, end)`, in the input itself (raw literals) or in the frame's scratch buffer. */
export interface Literals {
  readonly bytes: Uint8Array;
  readonly start: number;
  readonly end: number;
}

/** What literals sections share within a frame: the last Huffman table (for treeless literals) and a buffer to decode into. */
export interface LiteralsState {
  huffman: HuffmanTable | undefined;
  readonly scratch: Uint8Array;
}

const RAW = 0;
const RLE = 1;
const COMPRESSED = 2;

/**
 * Decodes the literals section at the start of a compressed block, `input[start, end)` being the
 * whole block (RFC 8878 3.1.1.3.1). Returns the literals and where the sequences section starts.
 */
export const decodeLiteralsSection = (
  input: Uint8Array,
  start: number,
  end: number,
  state: LiteralsState,
  maxBlockBytes: number,
  trace: ZstdTrace | undefined,
): { literals: Literals; next: number } => {
  if (start >= end) throw new ZstdError('zstd: truncated input in literals section header');
  const first = input[start] ?? 0;
  const type = first & 3;
  const sizeFormat = (first >>> 2) & 3;

  if (type === RAW || type === RLE) {
    // Size_Format 00 and 10 leave 5 bits of size in the first byte; 01 and 11 take 1 or 2 more bytes.
    const headerSize = (sizeFormat & 1) === 0 ? 1 : sizeFormat === 1 ? 2 : 3;
    if (start + headerSize > end) throw new ZstdError('zstd: truncated input in literals section header');
    const regenerated =
      headerSize === 1 ? first >>> 3 : headerSize === 2 ? (first >>> 4) + ((input[start + 1] ?? 0) << 4) : readU24(input, start) >>> 4;
    if (regenerated > maxBlockBytes) throw new ZstdError(`zstd: ${regenerated} literals exceed the ${maxBlockBytes} block maximum`);
    const from = start + headerSize;
    if (type === RAW) {
      tally(trace, 'literals.raw');
      if (from + regenerated > end) throw new ZstdError('zstd: truncated input in raw literals');
      return { literals: { bytes: input, start: from, end: from + regenerated }, next: from + regenerated };
    }
    tally(trace, 'literals.rle');
    if (from >= end) throw new ZstdError('zstd: truncated input in RLE literals');
    state.scratch.fill(input[from] ?? 0, 0, regenerated);
    return { literals: { bytes: state.scratch, start: 0, end: regenerated }, next: from + 1 };
  }

  // Compressed or treeless: both sizes share 20, 28 or 36 bits after the 4 bits of type and format.
  const fourStreams = sizeFormat !== 0;
  const headerSize = sizeFormat <= 1 ? 3 : sizeFormat + 2;
  if (start + headerSize > end) throw new ZstdError('zstd: truncated input in literals section header');
  let regenerated: number;
  let compressed: number;
  if (headerSize === 3) {
    const bits = readU24(input, start);
    regenerated = (bits >>> 4) & 0x3ff;
    compressed = (bits >>> 14) & 0x3ff;
  } else if (headerSize === 4) {
    const bits = readU32(input, start);
    regenerated = (bits >>> 4) & 0x3fff;
    compressed = (bits >>> 18) & 0x3fff;
  } else {
    const bits = readU32(input, start);
    regenerated = (bits >>> 4) & 0x3ffff;
    compressed = ((bits >>> 22) | ((input[start + 4] ?? 0) << 10)) & 0x3ffff;
  }
  if (regenerated > maxBlockBytes) throw new ZstdError(`zstd: ${regenerated} literals exceed the ${maxBlockBytes} block maximum`);
  const from = start + headerSize;
  const to = from + compressed;
  if (to > end) throw new ZstdError('zstd: truncated input in Huffman-coded literals');

  let streamsStart = from;
  let table: HuffmanTable | undefined;
  if (type === COMPRESSED) {
    const description = readHuffmanTable(input, from, to, trace);
    table = description.table;
    state.huffman = table;
    streamsStart += description.size;
    tally(trace, fourStreams ? 'literals.huffman.4-streams' : 'literals.huffman.1-stream');
  } else {
    table = state.huffman;
    if (table === undefined) throw new ZstdError('zstd: treeless literals without a previous Huffman table');
    tally(trace, fourStreams ? 'literals.treeless.4-streams' : 'literals.treeless.1-stream');
  }
  decodeHuffmanLiterals(table, input, streamsStart, to, fourStreams, regenerated, state.scratch);
  return { literals: { bytes: state.scratch, start: 0, end: regenerated }, next: to };
};
