import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeFrames } from '../../../src/util/zstd/frame.js';
import { OutputWindow } from '../../../src/util/zstd/output.js';
import { predefinedTable, SEQUENCE_FIELDS } from '../../../src/util/zstd/sequences.js';
import { Xxh64 } from '../../../src/util/zstd/xxhash64.js';
import { decompressZstd, decompressZstdChunks, isZstd, ZstdError } from '../../../src/util/zstd/index.js';
import {
  counterLines,
  expectedContent,
  FIXTURES,
  fixtureInputs,
  makeLongRollout,
  makeRollout,
  opaqueText,
  randomBytes,
  seededRandom,
  smallAlphabet,
  type FixtureSpec,
} from './inputs.js';

const FIXTURE_DIR = path.resolve(import.meta.dirname, '../../../fixtures/zstd');
const ZSTD_CLI = '/usr/bin/zstd';
const hasZstd = existsSync(ZSTD_CLI);

const inputs = fixtureInputs();
const fixture = (file: string): Buffer => readFileSync(path.join(FIXTURE_DIR, file));
const specNamed = (file: string): FixtureSpec => {
  const spec = FIXTURES.find((candidate) => candidate.file === file);
  if (spec === undefined) throw new Error(`no fixture ${file}`);
  return spec;
};

/** Decodes in whole mode with a tally of the modes met. */
const traced = (input: Uint8Array, trace: Record<string, number>): Buffer => {
  const out = new OutputWindow(false, 1024 * 1024 * 1024);
  for (const _chunk of decodeFrames(input, out, { maxOutputBytes: 1024 * 1024 * 1024, trace })) {
    // whole mode yields nothing
  }
  return out.result();
};

/** The chunks of the streaming API, copied (each is only valid until the next). */
const chunked = (input: Uint8Array, maxOutputBytes?: number): { content: Buffer; chunks: number; largestChunk: number; largestBuffer: number } => {
  const copies: Buffer[] = [];
  let largestChunk = 0;
  let largestBuffer = 0;
  for (const chunk of decompressZstdChunks(input, maxOutputBytes === undefined ? {} : { maxOutputBytes })) {
    copies.push(Buffer.from(chunk));
    largestChunk = Math.max(largestChunk, chunk.length);
    largestBuffer = Math.max(largestBuffer, chunk.buffer.byteLength);
  }
  return { content: Buffer.concat(copies), chunks: copies.length, largestChunk, largestBuffer };
};

/** What a decode threw: the error, or undefined when it returned. */
const thrownBy = (decode: () => unknown): unknown => {
  try {
    decode();
    return undefined;
  } catch (error) {
    return error;
  }
};

/** A frame built by hand: magic, a header with a 1 KiB window and no content size, then `body` (block headers and contents). */
const handmadeFrame = (body: readonly number[]): Buffer => Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, ...body]);

/** A 3-byte block header. */
const blockHeader = (last: boolean, type: number, size: number): number[] => {
  const value = (last ? 1 : 0) | (type << 1) | (size << 3);
  return [value & 0xff, (value >>> 8) & 0xff, value >>> 16];
};

/**
 * A compressed block: 4 raw literals "abcd", then one sequence in RLE mode for all three fields
 * (literal length code 4, match length code 0 = 3 bytes, offset code `offsetCode`), whose one-byte
 * `bitstream` holds the offset's extra bits and the end marker above them.
 */
const rleSequenceBlock = (offsetCode: number, bitstream: number): number[] => {
  const content = [0x20, 0x61, 0x62, 0x63, 0x64, 0x01, 0x54, 4, offsetCode, 0, bitstream];
  return [...blockHeader(true, 2, content.length), ...content];
};

describe('decompressZstd on the committed fixtures (zstd CLI output)', () => {
  for (const spec of FIXTURES) {
    it(`decodes ${spec.file} byte for byte, whole and in chunks`, () => {
      const input = fixture(spec.file);
      const expected = expectedContent(spec, inputs);
      const decoded = decompressZstd(input);
      expect(decoded.length).toBe(expected.length);
      expect(decoded.equals(expected)).toBe(true);
      expect(chunked(input).content.equals(expected)).toBe(true);
    });
  }

  it('exercise every block, literals and sequence coding mode, and every kind of frame', () => {
    const trace: Record<string, number> = {};
    for (const spec of FIXTURES) traced(fixture(spec.file), trace);
    const modes = [
      'block.raw',
      'block.rle',
      'block.compressed',
      'literals.raw',
      'literals.rle',
      'literals.huffman.1-stream',
      'literals.huffman.4-streams',
      'literals.treeless.1-stream',
      'literals.treeless.4-streams',
      'huffman.weights.fse',
      'huffman.weights.direct',
      'sequences.none',
      ...['ll', 'of', 'ml'].flatMap((field) => ['predefined', 'rle', 'fse', 'repeat'].map((mode) => `${field}.${mode}`)),
      'frame.skippable',
      'frame.checksum',
      'frame.single-segment',
    ];
    expect(modes.filter((mode) => (trace[mode] ?? 0) === 0)).toEqual([]);
    // Frames without a content size or a checksum, as Codex writes them.
    expect(trace['frame']).toBeGreaterThan(trace['frame.content-size'] ?? 0);
    expect(trace['frame']).toBeGreaterThan(trace['frame.checksum'] ?? 0);
  });

  it('stay small', () => {
    const total = FIXTURES.reduce((sum, spec) => sum + fixture(spec.file).length, 0);
    expect(total).toBeLessThan(500_000);
  });

  it('include a Codex-like stream: no content size, no checksum, a window, many blocks', () => {
    const trace: Record<string, number> = {};
    const decoded = traced(fixture('long-rollout.L3-stream.zst'), trace);
    expect(decoded.length).toBeGreaterThan(1024 * 1024);
    expect(trace['frame']).toBe(1);
    expect(trace['block.compressed']).toBeGreaterThan(8);
    expect(trace['frame.content-size']).toBeUndefined();
    expect(trace['frame.checksum']).toBeUndefined();
  });
});

describe('decompressZstdChunks', () => {
  it('hands out chunks of at most about 1 MiB', () => {
    const { content, chunks, largestChunk } = chunked(fixture('long-rollout.L3-stream.zst'));
    expect(content.equals(expectedContent(specNamed('long-rollout.L3-stream.zst'), inputs))).toBe(true);
    expect(chunks).toBeGreaterThan(1);
    // 1 MiB, plus the block that took the pending bytes past it.
    expect(largestChunk).toBeLessThanOrEqual(1024 * 1024 + 128 * 1024);
  });

  it('yields nothing for an empty frame', () => {
    expect([...decompressZstdChunks(fixture('empty.L3.zst'))]).toEqual([]);
  });
});

describe('FSE decoding tables', () => {
  // Rows of the predefined tables in RFC 8878 Appendix A: [state, symbol, bits, baseline].
  const rows = {
    literalLengths: [[0, 0, 4, 0], [1, 0, 4, 16], [2, 1, 5, 32], [10, 14, 6, 0], [22, 0, 4, 32], [38, 25, 4, 0], [39, 25, 4, 16], [43, 0, 4, 48], [60, 35, 6, 0], [63, 32, 6, 0]],
    matchLengths: [[0, 0, 6, 0], [1, 1, 4, 0], [2, 2, 5, 32], [22, 1, 4, 16], [43, 1, 4, 32], [44, 1, 4, 48], [45, 2, 4, 16], [57, 52, 6, 0], [63, 46, 6, 0]],
    offsets: [[0, 0, 5, 0], [1, 6, 4, 0], [15, 7, 4, 16], [20, 8, 4, 16], [24, 6, 4, 16], [27, 28, 5, 0], [31, 24, 5, 0]],
  } as const;
  for (const [field, expected] of Object.entries(rows)) {
    it(`builds the predefined ${field} table of RFC 8878 Appendix A`, () => {
      const table = predefinedTable(SEQUENCE_FIELDS[field as keyof typeof rows]);
      for (const [state, symbol, bits, baseline] of expected) {
        expect([state, table.symbols[state], table.bits[state], table.baselines[state]]).toEqual([state, symbol, bits, baseline]);
      }
    });
  }
});

describe('XXH64', () => {
  it('hashes the empty input to the reference value (low half of 0xEF46DB3751D8E999)', () => {
    expect(new Xxh64().digestLow32()).toBe(0x51d8e999);
  });

  it('gives the same hash whatever the pieces the input comes in', () => {
    const data = randomBytes(40, 1000);
    for (const length of [1, 7, 8, 31, 32, 33, 63, 64, 65, 100, 1000]) {
      const whole = new Xxh64();
      whole.update(data, 0, length);
      const pieces = new Xxh64();
      for (let at = 0; at < length; at += 5) pieces.update(data, at, Math.min(length, at + 5));
      expect(pieces.digestLow32()).toBe(whole.digestLow32());
    }
  });
});

describe('handmade and malformed input', () => {
  it('decodes a handmade block: RLE-mode sequences and a repeat offset', () => {
    // Offset code 0 = offset value 1 = the most recent offset (1): "abcd" then "ddd".
    expect(decompressZstd(handmadeFrame(rleSequenceBlock(0, 0x01))).toString()).toBe('abcdddd');
  });

  it('rejects a match offset beyond the output so far', () => {
    // Offset code 5 with extra bits 0: offset value 32, offset 29, but only 4 bytes precede it.
    expect(() => decompressZstd(handmadeFrame(rleSequenceBlock(5, 0x20)))).toThrow(/zstd: match offset 29 reaches before the start of the window/);
  });

  it('rejects a bad magic number, naming it', () => {
    const input = Buffer.from(fixture('tiny.L3.zst'));
    input[0] = 0x29;
    expect(() => decompressZstd(input)).toThrow(new ZstdError('zstd: bad magic number 0xfd2fb529'));
    expect(() => decompressZstd(Buffer.from('{"plain":"json"}\n'))).toThrow(/zstd: bad magic number/);
  });

  it('rejects frames that need a dictionary', () => {
    // Dictionary_ID_flag 1, a window descriptor, dictionary id 7.
    const input = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x01, 0x00, 0x07, ...blockHeader(true, 0, 0)]);
    expect(() => decompressZstd(input)).toThrow(new ZstdError('zstd: dictionaries are not supported'));
    // A dictionary id of 0 means none.
    expect(decompressZstd(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x01, 0x00, 0x00, ...blockHeader(true, 0, 0)])).length).toBe(0);
  });

  it('rejects reserved bits and block types, and oversized blocks', () => {
    expect(() => decompressZstd(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x08, 0x00, ...blockHeader(true, 0, 0)]))).toThrow(/reserved bit/);
    expect(() => decompressZstd(handmadeFrame(blockHeader(true, 3, 0)))).toThrow(/reserved block type/);
    // A window of 1 MiB (descriptor 0x50) and a raw block of 200000 bytes.
    const oversized = Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x50, ...blockHeader(true, 0, 200_000)]), Buffer.alloc(200_000)]);
    expect(() => decompressZstd(oversized)).toThrow(new ZstdError('zstd: block size 200000 exceeds the 131072 maximum'));
  });

  it('rejects treeless literals and repeat-mode tables with nothing to repeat', () => {
    // Treeless literals, one stream, 4 literals in 1 byte.
    expect(() => decompressZstd(handmadeFrame([...blockHeader(true, 2, 5), 0x43, 0x40, 0x00, 0x01, 0x00]))).toThrow(/treeless literals without a previous Huffman table/);
    // Raw literals "abcd", one sequence, all three fields in repeat mode.
    expect(() => decompressZstd(handmadeFrame([...blockHeader(true, 2, 8), 0x20, 0x61, 0x62, 0x63, 0x64, 0x01, 0xfc, 0x01]))).toThrow(/repeat mode for literal lengths without a previous table/);
  });

  it('rejects invalid Huffman and FSE descriptions', () => {
    // Compressed literals (4 in 3 bytes) whose directly written weights 3 and 1 add up to 5: 3 more
    // would be needed to reach a power of two, which no single weight gives.
    const huffman = [0x42, 0xc0, 0x00, 0x81, 0x31, 0x01, 0x00];
    expect(() => decompressZstd(handmadeFrame([...blockHeader(true, 2, huffman.length), ...huffman]))).toThrow(
      new ZstdError('zstd: Huffman weights do not complete to a power of two'),
    );
    // Literal lengths in FSE mode with an accuracy log of 5 + 15 = 20, beyond the 9 maximum.
    const fse = [0x00, 0x01, 0x80, 0x0f, 0x00];
    expect(() => decompressZstd(handmadeFrame([...blockHeader(true, 2, fse.length), ...fse]))).toThrow(/literal lengths table accuracy log 20 exceeds the 9 maximum/);
  });

  it('rejects empty input and input that ends mid-frame', () => {
    expect(() => decompressZstd(Buffer.alloc(0))).toThrow(ZstdError);
    const input = fixture('rollout.L3.zst');
    // Cuts in the magic, the header, the first block header, the block, and the checksum.
    for (const cut of [1, 3, 4, 5, 7, 9, 100, input.length >>> 1, input.length - 5, input.length - 1]) {
      expect(() => decompressZstd(input.subarray(0, cut)), `cut at ${cut}`).toThrow(ZstdError);
      expect(() => chunked(input.subarray(0, cut)), `cut at ${cut}`).toThrow(ZstdError);
    }
    expect(() => decompressZstd(input.subarray(0, 5))).toThrow(/zstd: truncated input in frame header/);
    expect(() => decompressZstd(input.subarray(0, input.length - 2))).toThrow(/zstd: truncated input in content checksum/);
    const stream = fixture('long-rollout.L3-stream.zst');
    for (let cut = 6; cut < stream.length; cut += 997) {
      expect(() => decompressZstd(stream.subarray(0, cut)), `cut at ${cut}`).toThrow(ZstdError);
    }
  });

  it('rejects a content checksum that does not match', () => {
    const input = Buffer.from(fixture('rollout.L3.zst'));
    input[input.length - 2] = (input[input.length - 2] ?? 0) ^ 0x10;
    expect(() => decompressZstd(input)).toThrow(new ZstdError('zstd: content checksum mismatch'));
    expect(() => chunked(input)).toThrow(/checksum mismatch/);
  });

  it('throws only ZstdError on random byte flips, and a checksummed frame decodes right or not at all', () => {
    const random = seededRandom(99);
    for (const file of ['rollout.L19.zst', 'counter.L16-piped.zst', 'long-rollout.L3-stream.zst', 'small-alphabet.L9.zst']) {
      const original = fixture(file);
      const expected = expectedContent(specNamed(file), inputs);
      const checksummed = (original[4] ?? 0) & 0x04;
      for (let trial = 0; trial < 60; trial++) {
        const input = Buffer.from(original);
        const at = 4 + Math.floor(random() * (input.length - 4));
        input[at] = (input[at] ?? 0) ^ (1 << Math.floor(random() * 8));
        const error = thrownBy(() => {
          const decoded = decompressZstd(input);
          if (checksummed) expect(decoded.equals(expected), `${file}: flip at ${at} decoded to other content`).toBe(true);
        });
        if (error !== undefined && !(error instanceof ZstdError)) throw error;
      }
    }
  });

  it('stops at maxOutputBytes', () => {
    // With a declared content size, before decoding anything; without one, once the output passes it.
    expect(() => decompressZstd(fixture('run.L3.zst'), { maxOutputBytes: 1000 })).toThrow(/zstd: frame declares 400000 bytes, beyond maxOutputBytes \(1000\)/);
    const stream = fixture('long-rollout.L3-stream.zst');
    expect(() => decompressZstd(stream, { maxOutputBytes: 300_000 })).toThrow(new ZstdError('zstd: output exceeds maxOutputBytes (300000)'));
    expect(() => chunked(stream, 300_000)).toThrow(/maxOutputBytes/);
    const size = expectedContent(specNamed('long-rollout.L3-stream.zst'), inputs).length;
    expect(decompressZstd(stream, { maxOutputBytes: size }).length).toBe(size);
    expect(() => decompressZstd(stream, { maxOutputBytes: size - 1 })).toThrow(/maxOutputBytes/);
  });
});

describe('isZstd', () => {
  it('recognizes the frame magic number', () => {
    expect(isZstd(fixture('tiny.L3.zst'))).toBe(true);
    expect(isZstd(Buffer.from([0x28, 0xb5, 0x2f]))).toBe(false);
    expect(isZstd(Buffer.from('{"type":"session_meta"}'))).toBe(false);
  });
});

describe('round trip through the zstd CLI', () => {
  const compress = (input: Buffer, args: readonly string[]): Buffer => execFileSync(ZSTD_CLI, [...args, '-q', '-c'], { input, maxBuffer: 1 << 30 });

  it.skipIf(!hasZstd)('decodes 20 seeded inputs of varied shape at random settings (skipped without /usr/bin/zstd)', () => {
    const random = seededRandom(2024);
    const shapes: readonly ((seed: number, bytes: number) => Buffer)[] = [
      (seed, bytes) => makeRollout(seed, bytes),
      (seed, bytes) => makeRollout(seed, bytes, bytes),
      (seed, bytes) => makeLongRollout(seed, bytes),
      (seed, bytes) => randomBytes(seed, bytes),
      (seed, bytes) => smallAlphabet(seed, bytes),
      (seed, bytes) => opaqueText(seed, bytes),
      (_seed, bytes) => counterLines(Math.ceil(bytes / 48)),
      (seed, bytes) => Buffer.concat([randomBytes(seed, bytes >>> 2), Buffer.alloc(bytes >>> 1, seed & 0xff), makeRollout(seed, bytes >>> 2)]),
    ];
    const settings: readonly (readonly string[])[] = [['-1'], ['-3'], ['-3', '--no-check'], ['-5'], ['-9'], ['-12', '--no-check'], ['--fast=3'], ['-19'], ['--ultra', '-21'], ['-3', '--long=24'], ['-6', '--zstd=wlog=15']];
    for (let trial = 0; trial < 20; trial++) {
      const shape = shapes[trial % shapes.length];
      if (shape === undefined) throw new Error('no shape');
      const bytes = Math.floor(random() ** 3 * 1_500_000);
      const plain = shape(1000 + trial, bytes);
      let args = settings[Math.floor(random() * settings.length)] ?? ['-3'];
      // The slowest levels on small inputs only, to keep the test quick.
      if (plain.length > 200_000 && (args.includes('-19') || args.includes('--ultra'))) args = ['-7'];
      const frames = random() < 0.5 ? compress(plain, args) : execFileSync(ZSTD_CLI, [...args, '-q', '-c', '--no-content-size'], { input: plain, maxBuffer: 1 << 30 });
      const what = `trial ${trial}: ${plain.length} bytes at ${args.join(' ')}`;
      expect(decompressZstd(frames).equals(plain), what).toBe(true);
      expect(chunked(frames).content.equals(plain), what).toBe(true);
    }
  });

  it.skipIf(!hasZstd)('keeps only the window in memory when decoding in chunks (skipped without /usr/bin/zstd)', () => {
    // A 128 KiB window over 6 MB of output: the decoder's buffer stays a window and a chunk or two large.
    const plain = makeLongRollout(77, 6_000_000);
    const { content, largestBuffer } = chunked(compress(plain, ['-3', '--zstd=wlog=17']));
    expect(content.equals(plain)).toBe(true);
    expect(largestBuffer).toBeLessThan(3 * 1024 * 1024);
  });

  it.skipIf(!hasZstd)('agrees with the CLI on checksums of every length from 0 to 100 bytes (skipped without /usr/bin/zstd)', () => {
    const data = randomBytes(5, 100);
    for (let length = 0; length <= 100; length++) {
      const plain = data.subarray(0, length);
      expect(decompressZstd(compress(plain, ['-1'])).equals(plain), `length ${length}`).toBe(true);
    }
  });
});
