import { decodeFrames } from './frame.js';
import { OutputWindow } from './output.js';

/**
 * A Zstandard decoder in plain TypeScript (RFC 8878), for the `.zst` transcripts Codex writes:
 * Node 20's zlib has no zstd. Frames may be concatenated and mixed with skippable frames; content
 * checksums are verified; dictionaries are not supported. Anything malformed throws a ZstdError.
 */

export { ZstdError } from './common.js';

export interface ZstdOptions {
  /** Decompressing more than this throws a ZstdError (a guard against decompression bombs). Default 1 GiB. */
  readonly maxOutputBytes?: number;
}

export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024 * 1024;

/** The whole decompressed content of `input`. */
export const decompressZstd = (input: Uint8Array, options: ZstdOptions = {}): Buffer => {
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const out = new OutputWindow(false, maxOutputBytes);
  // In whole mode the decoder yields nothing: running it to its end fills `out`.
  for (const _chunk of decodeFrames(input, out, { maxOutputBytes })) {
    // unreachable
  }
  return out.result();
};

/**
 * The decompressed content of `input` in chunks of up to about 1 MiB, holding only the frame's
 * window in memory rather than the whole content. Each chunk is a view into the decoder's window
 * and stays valid only until the next chunk is asked for.
 */
export function* decompressZstdChunks(input: Uint8Array, options: ZstdOptions = {}): Generator<Buffer, void, undefined> {
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  yield* decodeFrames(input, new OutputWindow(true, maxOutputBytes), { maxOutputBytes });
}

/** True when `head` starts with the Zstandard frame magic number, 28 B5 2F FD. */
export const isZstd = (head: Uint8Array): boolean => head.length >= 4 && head[0] === 0x28 && head[1] === 0xb5 && head[2] === 0x2f && head[3] === 0xfd;
