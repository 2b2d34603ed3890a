import { MAX_BLOCK_BYTES, ZstdError, readU16, readU24, readU32, tally, type ZstdTrace } from './common.js';
import { decodeLiteralsSection, type LiteralsState } from './literals.js';
import type { OutputWindow } from './output.js';
import { decodeSequencesSection, newSequencesState, type BlockOutput, type SequencesState } from './sequences.js';
import { Xxh64 } from './xxhash64.js';

/**
 * Frames and blocks (RFC 8878 3.1): Zstandard frames one after another, skippable frames between
 * them, each frame a header, blocks (raw, RLE or compressed) and an optional content checksum.
 */

export interface FrameOptions {
  readonly maxOutputBytes: number;
  readonly trace?: ZstdTrace;
}

const FRAME_MAGIC = 0xfd2fb528;
/** Skippable frames use any of the 16 magic numbers 0x184D2A50-0x184D2A5F. */
const SKIPPABLE_MAGIC = 0x184d2a50;
const SKIPPABLE_MAGIC_MASK = 0xfffffff0;

const RAW_BLOCK = 0;
const RLE_BLOCK = 1;
const COMPRESSED_BLOCK = 2;
const BLOCK_NAMES = ['raw', 'rle', 'compressed'] as const;

/** Whole mode trusts a declared content size up to this many times the compressed bytes left. */
const PLAUSIBLE_RATIO = 512;

/** Streaming mode hands out decoded bytes once this many are pending. */
const CHUNK_BYTES = 1024 * 1024;

interface FrameHeader {
  readonly windowSize: number;
  readonly contentSize: number | undefined;
  readonly hasChecksum: boolean;
  /** Input offset of the first block header. */
  readonly end: number;
}

/** Reads the frame header after the magic number (RFC 8878 3.1.1.1). */
const readFrameHeader = (input: Uint8Array, start: number, trace: ZstdTrace | undefined): FrameHeader => {
  if (start >= input.length) throw new ZstdError('zstd: truncated input in frame header');
  const descriptor = input[start] ?? 0;
  const contentSizeFlag = descriptor >>> 6;
  const singleSegment = (descriptor & 0x20) !== 0;
  if ((descriptor & 0x08) !== 0) throw new ZstdError('zstd: reserved bit set in frame header');
  const hasChecksum = (descriptor & 0x04) !== 0;
  const dictionaryIdBytes = [0, 1, 2, 4][descriptor & 3] ?? 0;
  const contentSizeBytes = [singleSegment ? 1 : 0, 2, 4, 8][contentSizeFlag] ?? 0;
  const end = start + 1 + (singleSegment ? 0 : 1) + dictionaryIdBytes + contentSizeBytes;
  if (end > input.length) throw new ZstdError('zstd: truncated input in frame header');

  let at = start + 1;
  let windowSize = 0;
  if (!singleSegment) {
    const windowDescriptor = input[at++] ?? 0;
    const base = 2 ** (10 + (windowDescriptor >>> 3));
    windowSize = base + (base / 8) * (windowDescriptor & 7);
  }
  let dictionaryId = 0;
  if (dictionaryIdBytes === 1) dictionaryId = input[at] ?? 0;
  else if (dictionaryIdBytes === 2) dictionaryId = readU16(input, at);
  else if (dictionaryIdBytes === 4) dictionaryId = readU32(input, at);
  if (dictionaryId !== 0) throw new ZstdError('zstd: dictionaries are not supported');
  at += dictionaryIdBytes;
  let contentSize: number | undefined;
  if (contentSizeBytes === 1) contentSize = input[at] ?? 0;
  else if (contentSizeBytes === 2) contentSize = readU16(input, at) + 256;
  else if (contentSizeBytes === 4) contentSize = readU32(input, at);
  else if (contentSizeBytes === 8) contentSize = readU32(input, at) + readU32(input, at + 4) * 2 ** 32;
  // A single-segment frame has no window descriptor: its window is its whole content.
  if (singleSegment) windowSize = contentSize ?? 0;

  tally(trace, 'frame');
  if (contentSize !== undefined) tally(trace, 'frame.content-size');
  if (singleSegment) tally(trace, 'frame.single-segment');
  if (hasChecksum) tally(trace, 'frame.checksum');
  return { windowSize, contentSize, hasChecksum, end };
};

/** Scratch space a decode shares across its frames. */
interface DecodeContext {
  readonly input: Uint8Array;
  readonly out: OutputWindow;
  readonly options: FrameOptions;
  readonly literalsScratch: Uint8Array;
  /** Bytes decoded so far, over all frames. */
  produced: number;
}

/**
 * Decodes every frame of `input` into `out`. In streaming mode it yields the decoded bytes in
 * chunks, the last one once the input is done; in whole mode it yields nothing.
 */
export function* decodeFrames(input: Uint8Array, out: OutputWindow, options: FrameOptions): Generator<Buffer, void, undefined> {
  if (input.length === 0) throw new ZstdError('zstd: empty input');
  const context: DecodeContext = { input, out, options, literalsScratch: new Uint8Array(MAX_BLOCK_BYTES), produced: 0 };
  let at = 0;
  while (at < input.length) {
    if (at + 4 > input.length) throw new ZstdError('zstd: truncated input in frame magic number');
    const magic = readU32(input, at);
    if ((magic & SKIPPABLE_MAGIC_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      if (at + 8 > input.length) throw new ZstdError('zstd: truncated input in skippable frame header');
      const size = readU32(input, at + 4);
      if (at + 8 + size > input.length) throw new ZstdError('zstd: truncated input in skippable frame');
      tally(options.trace, 'frame.skippable');
      at += 8 + size;
      continue;
    }
    if (magic !== FRAME_MAGIC) throw new ZstdError(`zstd: bad magic number 0x${magic.toString(16).padStart(8, '0')}`);
    at = yield* decodeFrame(context, at + 4);
  }
  if (out.streaming && out.pendingBytes > 0) yield out.takePending();
}

/** Decodes one Zstandard frame whose header starts at `start`; returns the input offset after it. */
function* decodeFrame(context: DecodeContext, start: number): Generator<Buffer, number, undefined> {
  const { input, out, options } = context;
  const { trace, maxOutputBytes } = options;
  const { windowSize, contentSize, hasChecksum, end: headerEnd } = readFrameHeader(input, start, trace);
  if (contentSize !== undefined && contentSize > maxOutputBytes - context.produced) {
    throw new ZstdError(`zstd: frame declares ${contentSize} bytes, beyond maxOutputBytes (${maxOutputBytes})`);
  }
  // Blocks never decode to more than the window, nor to more than 128 KiB (RFC 8878 3.1.1.2.4).
  const maxBlockBytes = Math.min(MAX_BLOCK_BYTES, windowSize);
  const literalsState: LiteralsState = { huffman: undefined, scratch: context.literalsScratch };
  const sequencesState: SequencesState = newSequencesState();
  const hash = hasChecksum ? new Xxh64() : undefined;

  out.startFrame();
  if (!out.streaming) {
    // Sized from the declared content, unless that is more than the rest of the input could
    // plausibly hold (a corrupt or hostile header): then the buffer grows as decoding proves it.
    const plausible = PLAUSIBLE_RATIO * (input.length - start) + MAX_BLOCK_BYTES;
    if (contentSize !== undefined && contentSize <= plausible) out.reserveExact(contentSize);
    else out.expect(Math.min(contentSize ?? 4 * (input.length - start), plausible));
  }
  let decoded = 0;
  let at = headerEnd;
  let last = false;
  while (!last) {
    if (at + 3 > input.length) throw new ZstdError('zstd: truncated input in block header');
    const header = readU24(input, at);
    at += 3;
    last = (header & 1) !== 0;
    const type = (header >>> 1) & 3;
    const size = header >>> 3;
    if (type === 3) throw new ZstdError('zstd: reserved block type');
    tally(trace, `block.${BLOCK_NAMES[type] ?? 'reserved'}`);
    if (size > maxBlockBytes) throw new ZstdError(`zstd: block size ${size} exceeds the ${maxBlockBytes} maximum`);
    // An RLE block's size is what it decodes to; its content is the one byte to repeat.
    const contentEnd = type === RLE_BLOCK ? at + 1 : at + size;
    if (contentEnd > input.length) throw new ZstdError(`zstd: truncated input in ${BLOCK_NAMES[type] ?? ''} block`);
    const remaining = contentSize === undefined ? Infinity : contentSize - decoded;
    const room = Math.min(type === COMPRESSED_BLOCK ? maxBlockBytes : size, remaining);
    if (type !== COMPRESSED_BLOCK && size > room) throw new ZstdError('zstd: frame decodes to more than its declared content size');

    // Streaming mode hands out what is pending before the buffer slides over it.
    if (out.streaming && out.lacksRoom(room) && out.pendingBytes > 0) yield out.takePending();
    out.reserve(room, windowSize);
    const blockStart = out.position;
    if (type === RAW_BLOCK) {
      out.buffer.set(input.subarray(at, contentEnd), blockStart);
      out.position += size;
    } else if (type === RLE_BLOCK) {
      out.buffer.fill(input[at] ?? 0, blockStart, blockStart + size);
      out.position += size;
    } else {
      out.position = decodeCompressedBlock(context, at, contentEnd, maxBlockBytes, literalsState, sequencesState, {
        buffer: out.buffer,
        position: blockStart,
        limit: blockStart + room,
        historyStart: out.historyStart,
        windowSize,
      });
    }
    const blockBytes = out.position - blockStart;
    decoded += blockBytes;
    context.produced += blockBytes;
    if (context.produced > maxOutputBytes) throw new ZstdError(`zstd: output exceeds maxOutputBytes (${maxOutputBytes})`);
    hash?.update(out.buffer, blockStart, out.position);
    at = contentEnd;
    if (out.streaming && out.pendingBytes >= CHUNK_BYTES) yield out.takePending();
  }

  if (contentSize !== undefined && decoded !== contentSize) {
    throw new ZstdError(`zstd: frame decodes to ${decoded} bytes, not the ${contentSize} its header declares`);
  }
  if (hash !== undefined) {
    if (at + 4 > input.length) throw new ZstdError('zstd: truncated input in content checksum');
    if (readU32(input, at) !== hash.digestLow32()) throw new ZstdError('zstd: content checksum mismatch');
    at += 4;
  }
  return at;
}

const decodeCompressedBlock = (
  context: DecodeContext,
  start: number,
  end: number,
  maxBlockBytes: number,
  literalsState: LiteralsState,
  sequencesState: SequencesState,
  output: BlockOutput,
): number => {
  const { input, options } = context;
  const { literals, next } = decodeLiteralsSection(input, start, end, literalsState, maxBlockBytes, options.trace);
  return decodeSequencesSection(input, next, end, sequencesState, literals, output, options.trace);
};
