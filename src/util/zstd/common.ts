/**
 * What every part of the zstd decoder shares: its error type, the format's size limits, and an
 * optional tally of which coding modes a decode went through (tests use it to prove that their
 * fixtures exercise each mode; it costs one check per block section when absent).
 */

/** Every malformed, truncated or unsupported input makes the decoder throw this, never anything else. */
export class ZstdError extends Error {
  override readonly name = 'ZstdError';
}

/** Largest decoded size of a block, and of its literals (RFC 8878 3.1.1.2.4). */
export const MAX_BLOCK_BYTES = 128 * 1024;

/** Counts of the frame, block, literals and sequence modes a decode met, by name ("block.rle", "ll.repeat", ...). */
export type ZstdTrace = Record<string, number>;

export const tally = (trace: ZstdTrace | undefined, key: string): void => {
  if (trace !== undefined) trace[key] = (trace[key] ?? 0) + 1;
};

/** Little-endian unsigned 16-bit value at `at`; the caller has checked that the bytes exist. */
export const readU16 = (bytes: Uint8Array, at: number): number => (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);

/** Little-endian unsigned 24-bit value at `at`; the caller has checked that the bytes exist. */
export const readU24 = (bytes: Uint8Array, at: number): number => readU16(bytes, at) | ((bytes[at + 2] ?? 0) << 16);

/** Little-endian unsigned 32-bit value at `at`; the caller has checked that the bytes exist. */
export const readU32 = (bytes: Uint8Array, at: number): number => (readU24(bytes, at) | ((bytes[at + 3] ?? 0) << 24)) >>> 0;
