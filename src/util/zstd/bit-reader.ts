import { ZstdError } from './common.js';

/**
 * The two bit streams of zstd (RFC 8878 4.1, 4.2.2). Both hold little-endian fields: bit 0 of byte
 * 0 is the stream's lowest bit.
 *
 * - FSE table descriptions are read forward, from the lowest bit up.
 * - Huffman streams, the compressed Huffman weights and the sequences bitstream are read backward:
 *   the encoder wrote them forward and closed them with a 1 bit (then zero padding to the byte),
 *   so the decoder starts just below that marker and takes each field from the top down.
 *
 * Positions are bit offsets relative to the stream's first byte, so they stay small integers
 * whatever the input's size.
 */

/** Forward reader over `bytes[start, end)`, for FSE table descriptions. */
export class ForwardBitReader {
  private readonly bytes: Uint8Array;
  private readonly start: number;
  private readonly endBit: number;
  private readonly what: string;
  private bitPos = 0;

  constructor(bytes: Uint8Array, start: number, end: number, what: string) {
    this.bytes = bytes;
    this.start = start;
    this.endBit = (end - start) * 8;
    this.what = what;
  }

  /**
   * The next `count` bits (up to 24) without consuming them. Bits past the end read as zero: a
   * field may be read wider than it turns out to be, and only what is consumed must exist.
   */
  peek(count: number): number {
    const at = this.start + (this.bitPos >>> 3);
    const bytes = this.bytes;
    const end = this.start + (this.endBit >>> 3);
    let word = 0;
    for (let i = 0; i < 4 && at + i < end; i++) word |= (bytes[at + i] ?? 0) << (8 * i);
    return (word >>> (this.bitPos & 7)) & ((1 << count) - 1);
  }

  skip(count: number): void {
    this.bitPos += count;
    if (this.bitPos > this.endBit) throw new ZstdError(`zstd: truncated input in ${this.what}`);
  }

  read(count: number): number {
    const value = this.peek(count);
    this.skip(count);
    return value;
  }

  /** Whole bytes used so far: a description ends on a byte boundary (its last bits are padding). */
  bytesUsed(): number {
    return (this.bitPos + 7) >>> 3;
  }
}

/** Backward reader over `bytes[start, end)`, for Huffman streams and the sequences bitstream. */
export class BackwardBitReader {
  private readonly bytes: Uint8Array;
  /** 32-bit loads in one step: TurboFan turns a DataView read into a single unaligned load. */
  private readonly view: DataView;
  private readonly start: number;
  /** Bits below this position are still unread; it goes negative once a read runs past the stream's start. */
  bitPos: number;

  constructor(bytes: Uint8Array, start: number, end: number, what: string) {
    if (end <= start) throw new ZstdError(`zstd: empty ${what} bitstream`);
    const last = bytes[end - 1] ?? 0;
    // The encoder always closes the stream with a 1 bit, so a last byte of 0 is corrupt.
    if (last === 0) throw new ZstdError(`zstd: ${what} bitstream lacks its end marker`);
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.start = start;
    this.bitPos = (end - 1 - start) * 8 + (31 - Math.clz32(last));
  }

  /**
   * The `count` bits (up to 25) just below the read position, without consuming them. Bits below
   * the stream's start read as zero: a Huffman decoder looks at its widest code even when the
   * last symbols' codes are shorter. Whether too much was consumed is checked at the end.
   */
  peek(count: number): number {
    const pos = this.bitPos - count;
    if (pos < 0) return this.peekPastStart(pos, count);
    return (this.wordAt(this.start + (pos >>> 3)) >>> (pos & 7)) & ((1 << count) - 1);
  }

  /** Reads `count` bits (up to 25). */
  read(count: number): number {
    if (count === 0) return 0;
    const pos = this.bitPos - count;
    this.bitPos = pos;
    if (pos < 0) return this.peekPastStart(pos, count);
    return (this.wordAt(this.start + (pos >>> 3)) >>> (pos & 7)) & ((1 << count) - 1);
  }

  /** Reads `count` bits (up to 31), for the widest offset fields. */
  readWide(count: number): number {
    if (count <= 24) return this.read(count);
    const high = this.read(count - 24);
    return high * 0x1000000 + this.read(24);
  }

  /** True once a read went below the stream's first bit (the stream was too short for what was asked). */
  overflowed(): boolean {
    return this.bitPos < 0;
  }

  /** True when every bit was consumed, no more, no less: the RFC calls anything else corrupt. */
  finishedExactly(): boolean {
    return this.bitPos === 0;
  }

  /** The 4 bytes from `at`, little-endian. They may run past the stream into what follows it: the caller masks those bits off. */
  private wordAt(at: number): number {
    if (at + 4 <= this.bytes.length) return this.view.getInt32(at, true);
    let word = 0;
    for (let i = 0; at + i < this.bytes.length && i < 4; i++) word |= (this.bytes[at + i] ?? 0) << (8 * i);
    return word;
  }

  /** A peek whose lowest bits lie below the stream's start: those read as zero. */
  private peekPastStart(pos: number, count: number): number {
    const available = pos + count;
    if (available <= 0) return 0;
    return ((this.wordAt(this.start) & ((1 << available) - 1)) << -pos) >>> 0;
  }
}
