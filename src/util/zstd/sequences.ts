import { BackwardBitReader } from './bit-reader.js';
import { ZstdError, tally, type ZstdTrace } from './common.js';
import { buildFseTable, readFseDistribution, rleFseTable, type FseTable } from './fse.js';
import type { Literals } from './literals.js';

/**
 * The sequences section of a compressed block (RFC 8878 3.1.1.3.2) and its execution (3.1.1.4):
 * each sequence copies some literals, then a match from earlier output. Sequences are executed as
 * they are decoded, straight into the output buffer.
 */

/** What sequences sections share within a frame: the last tables (for Repeat mode) and the repeat offsets. */
export interface SequencesState {
  literalLengths: FseTable | undefined;
  offsets: FseTable | undefined;
  matchLengths: FseTable | undefined;
  repeatOffset1: number;
  repeatOffset2: number;
  repeatOffset3: number;
}

export const newSequencesState = (): SequencesState => ({
  literalLengths: undefined,
  offsets: undefined,
  matchLengths: undefined,
  // Every frame starts with these (RFC 8878 3.1.2.5).
  repeatOffset1: 1,
  repeatOffset2: 4,
  repeatOffset3: 8,
});

/** Where a block's output goes: `buffer[position, limit)` is free, and matches may reach back to `historyStart` and `windowSize` bytes at most. */
export interface BlockOutput {
  readonly buffer: Uint8Array;
  readonly position: number;
  readonly limit: number;
  readonly historyStart: number;
  readonly windowSize: number;
}

// Codes to baselines and extra bits (RFC 8878 3.1.1.3.2.1.1).
const LITERAL_LENGTH_BASELINES = Uint32Array.of(
  0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
  16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096,
  8192, 16384, 32768, 65536,
);
const LITERAL_LENGTH_EXTRA_BITS = Uint8Array.of(
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12,
  13, 14, 15, 16,
);
const MATCH_LENGTH_BASELINES = Uint32Array.of(
  3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
  19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34,
  35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051,
  4099, 8195, 16387, 32771, 65539,
);
/** 2^code, the baseline of each offset code (the code is also its number of extra bits). */
const OFFSET_BASELINES = Uint32Array.from({ length: 32 }, (_, code) => 2 ** code);
const MATCH_LENGTH_EXTRA_BITS = Uint8Array.of(
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11,
  12, 13, 14, 15, 16,
);

/** One kind of sequence field: its symbol range, its largest table, and its predefined distribution (RFC 8878 3.1.1.3.2.2). */
export interface FieldKind {
  readonly name: 'll' | 'of' | 'ml';
  readonly label: string;
  readonly maxSymbol: number;
  readonly maxAccuracyLog: number;
  readonly predefinedAccuracyLog: number;
  readonly predefinedCounts: readonly number[];
}

const LITERAL_LENGTHS: FieldKind = {
  name: 'll',
  label: 'literal lengths',
  maxSymbol: 35,
  maxAccuracyLog: 9,
  predefinedAccuracyLog: 6,
  predefinedCounts: [4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1],
};
// Offset codes are the number of extra bits to read; 31 is the most a 32-bit offset can use.
const OFFSETS: FieldKind = {
  name: 'of',
  label: 'offsets',
  maxSymbol: 31,
  maxAccuracyLog: 8,
  predefinedAccuracyLog: 5,
  predefinedCounts: [1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1],
};
const MATCH_LENGTHS: FieldKind = {
  name: 'ml',
  label: 'match lengths',
  maxSymbol: 52,
  maxAccuracyLog: 9,
  predefinedAccuracyLog: 6,
  predefinedCounts: [
    1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1,
    -1, -1, -1, -1,
  ],
};

const predefinedTables = new Map<FieldKind, FseTable>();

/** The table of Predefined mode, built on first use. */
export const predefinedTable = (kind: FieldKind): FseTable => {
  let table = predefinedTables.get(kind);
  if (table === undefined) {
    table = buildFseTable({ accuracyLog: kind.predefinedAccuracyLog, counts: Int16Array.from(kind.predefinedCounts) }, kind.label);
    predefinedTables.set(kind, table);
  }
  return table;
};

export const SEQUENCE_FIELDS = { literalLengths: LITERAL_LENGTHS, offsets: OFFSETS, matchLengths: MATCH_LENGTHS } as const;

const PREDEFINED = 0;
const RLE = 1;
const FSE_COMPRESSED = 2;
const MODE_NAMES = ['predefined', 'rle', 'fse', 'repeat'] as const;

/** Reads one field's table per its compression mode; returns the table and where the next table starts. */
const readTable = (
  kind: FieldKind,
  mode: number,
  previous: FseTable | undefined,
  input: Uint8Array,
  start: number,
  end: number,
  trace: ZstdTrace | undefined,
): { table: FseTable; next: number } => {
  tally(trace, `${kind.name}.${MODE_NAMES[mode] ?? 'repeat'}`);
  if (mode === PREDEFINED) return { table: predefinedTable(kind), next: start };
  if (mode === RLE) {
    if (start >= end) throw new ZstdError(`zstd: truncated input in ${kind.label} RLE symbol`);
    const symbol = input[start] ?? 0;
    if (symbol > kind.maxSymbol) throw new ZstdError(`zstd: ${kind.label} code ${symbol} exceeds the ${kind.maxSymbol} maximum`);
    return { table: rleFseTable(symbol), next: start + 1 };
  }
  if (mode === FSE_COMPRESSED) {
    const { distribution, size } = readFseDistribution(input, start, end, kind.maxSymbol, kind.maxAccuracyLog, kind.label);
    return { table: buildFseTable(distribution, kind.label), next: start + size };
  }
  if (previous === undefined) throw new ZstdError(`zstd: repeat mode for ${kind.label} without a previous table`);
  return { table: previous, next: start };
};

/**
 * Decodes the sequences section `input[start, end)` and executes it into `out`, with `literals`.
 * Returns the output position after the block.
 */
export const decodeSequencesSection = (
  input: Uint8Array,
  start: number,
  end: number,
  state: SequencesState,
  literals: Literals,
  out: BlockOutput,
  trace: ZstdTrace | undefined,
): number => {
  if (start >= end) throw new ZstdError('zstd: truncated input in sequences section header');
  const first = input[start] ?? 0;
  let sequenceCount: number;
  let at: number;
  if (first < 128) {
    sequenceCount = first;
    at = start + 1;
  } else if (first < 255) {
    if (start + 2 > end) throw new ZstdError('zstd: truncated input in sequences section header');
    sequenceCount = ((first - 128) << 8) + (input[start + 1] ?? 0);
    at = start + 2;
  } else {
    if (start + 3 > end) throw new ZstdError('zstd: truncated input in sequences section header');
    sequenceCount = (input[start + 1] ?? 0) + ((input[start + 2] ?? 0) << 8) + 0x7f00;
    at = start + 3;
  }

  if (sequenceCount === 0) {
    // The block is its literals alone; nothing else may follow in it.
    tally(trace, 'sequences.none');
    if (at !== end) throw new ZstdError('zstd: data after an empty sequences section');
    return copyLiterals(literals, literals.start, out.buffer, out.position, out.limit);
  }

  if (at >= end) throw new ZstdError('zstd: truncated input in sequences section header');
  const modes = input[at++] ?? 0;
  if ((modes & 3) !== 0) throw new ZstdError('zstd: reserved bits set in sequence compression modes');
  const literalLengths = readTable(LITERAL_LENGTHS, modes >>> 6, state.literalLengths, input, at, end, trace);
  const offsets = readTable(OFFSETS, (modes >>> 4) & 3, state.offsets, input, literalLengths.next, end, trace);
  const matchLengths = readTable(MATCH_LENGTHS, (modes >>> 2) & 3, state.matchLengths, input, offsets.next, end, trace);
  state.literalLengths = literalLengths.table;
  state.offsets = offsets.table;
  state.matchLengths = matchLengths.table;

  return executeSequences(input, matchLengths.next, end, sequenceCount, state, literals, out);
};

/** Copies the literals left from `from` to the output; returns the output position after them. */
const copyLiterals = (literals: Literals, from: number, buffer: Uint8Array, position: number, limit: number): number => {
  const count = literals.end - from;
  if (position + count > limit) throw new ZstdError('zstd: block decodes to more than its maximum size');
  buffer.set(literals.bytes.subarray(from, literals.end), position);
  return position + count;
};

const executeSequences = (
  input: Uint8Array,
  start: number,
  end: number,
  sequenceCount: number,
  state: SequencesState,
  literals: Literals,
  out: BlockOutput,
): number => {
  const reader = new BackwardBitReader(input, start, end, 'sequences');
  const { symbols: llSymbols, bits: llBits, baselines: llBaselines, accuracyLog: llLog } = state.literalLengths ?? predefinedTable(LITERAL_LENGTHS);
  const { symbols: ofSymbols, bits: ofBits, baselines: ofBaselines, accuracyLog: ofLog } = state.offsets ?? predefinedTable(OFFSETS);
  const { symbols: mlSymbols, bits: mlBits, baselines: mlBaselines, accuracyLog: mlLog } = state.matchLengths ?? predefinedTable(MATCH_LENGTHS);
  // Initial states, in this order (RFC 8878 3.1.1.3.2.5).
  let llState = reader.read(llLog);
  let ofState = reader.read(ofLog);
  let mlState = reader.read(mlLog);

  let { repeatOffset1, repeatOffset2, repeatOffset3 } = state;
  const { buffer, limit, historyStart, windowSize } = out;
  const literalBytes = literals.bytes;
  const literalsEnd = literals.end;
  let literalAt = literals.start;
  let position = out.position;

  for (let i = 0; i < sequenceCount; i++) {
    const ofCode = ofSymbols[ofState] ?? 0;
    const mlCode = mlSymbols[mlState] ?? 0;
    const llCode = llSymbols[llState] ?? 0;
    // Extra bits come offset first, then match length, then literal length.
    const offsetValue = (OFFSET_BASELINES[ofCode] ?? 0) + reader.readWide(ofCode);
    const matchLength = (MATCH_LENGTH_BASELINES[mlCode] ?? 0) + reader.read(MATCH_LENGTH_EXTRA_BITS[mlCode] ?? 0);
    const literalLength = (LITERAL_LENGTH_BASELINES[llCode] ?? 0) + reader.read(LITERAL_LENGTH_EXTRA_BITS[llCode] ?? 0);

    // Offset values 1-3 name a recent offset, shifted by one when there are no literals (RFC 8878 3.1.2.5).
    let offset: number;
    if (offsetValue > 3) {
      offset = offsetValue - 3;
      repeatOffset3 = repeatOffset2;
      repeatOffset2 = repeatOffset1;
      repeatOffset1 = offset;
    } else {
      const recent = literalLength === 0 ? offsetValue : offsetValue - 1;
      if (recent === 0) {
        offset = repeatOffset1;
      } else if (recent === 1) {
        offset = repeatOffset2;
        repeatOffset2 = repeatOffset1;
        repeatOffset1 = offset;
      } else {
        offset = recent === 2 ? repeatOffset3 : repeatOffset1 - 1;
        if (offset === 0) throw new ZstdError('zstd: repeat offset of 0');
        repeatOffset3 = repeatOffset2;
        repeatOffset2 = repeatOffset1;
        repeatOffset1 = offset;
      }
    }

    // The last sequence leaves the states as they are: no more bits are meant for them.
    if (i + 1 < sequenceCount) {
      llState = (llBaselines[llState] ?? 0) + reader.read(llBits[llState] ?? 0);
      mlState = (mlBaselines[mlState] ?? 0) + reader.read(mlBits[mlState] ?? 0);
      ofState = (ofBaselines[ofState] ?? 0) + reader.read(ofBits[ofState] ?? 0);
    }

    if (literalLength > literalsEnd - literalAt) throw new ZstdError('zstd: sequence uses more literals than the block has');
    if (position + literalLength + matchLength > limit) throw new ZstdError('zstd: block decodes to more than its maximum size');
    // Short copies by hand: a subarray and a native call cost more than a few bytes.
    if (literalLength <= 16) {
      for (let k = 0; k < literalLength; k++) buffer[position + k] = literalBytes[literalAt + k] ?? 0;
    } else {
      buffer.set(literalBytes.subarray(literalAt, literalAt + literalLength), position);
    }
    position += literalLength;
    literalAt += literalLength;

    if (offset > position - historyStart || offset > windowSize) {
      throw new ZstdError(`zstd: match offset ${offset} reaches before the start of the window`);
    }
    const from = position - offset;
    if (offset >= matchLength && matchLength > 16) {
      buffer.copyWithin(position, from, from + matchLength);
    } else if (offset === 1) {
      buffer.fill(buffer[from] ?? 0, position, position + matchLength);
    } else {
      // Byte by byte, so that an overlapping match repeats the bytes it has just written.
      for (let k = 0; k < matchLength; k++) buffer[position + k] = buffer[from + k] ?? 0;
    }
    position += matchLength;
  }

  if (!reader.finishedExactly()) throw new ZstdError('zstd: sequences bitstream does not end with its last sequence');
  state.repeatOffset1 = repeatOffset1;
  state.repeatOffset2 = repeatOffset2;
  state.repeatOffset3 = repeatOffset3;
  return copyLiterals(literals, literalAt, buffer, position, limit);
};
