import { readFileSync } from 'node:fs';
import path from 'node:path';
import { yieldIfDue } from '../../util/next-turn.js';
import { createLineSplitter, DEFAULT_MAX_LINE_BYTES, type LineItem } from './lines.js';
import type { ReadOptions } from './read-lines.js';

/**
 * Transcripts an agent compresses once they go cold: Codex 0.137+ rewrites a rollout idle for a
 * week as `rollout-….jsonl.zst` (zstd) and deletes the plain file; when the thread is resumed, it
 * writes the plain file back and appends to that. A compressed transcript is never appended to, so
 * it is read whole, and any change to it is a new file (read again from its first byte).
 */
export const COMPRESSED_SUFFIX = '.zst';

export const isCompressedTranscript = (file: string): boolean => file.endsWith(COMPRESSED_SUFFIX);

/** The plain file a compressed one was made from (`x.jsonl.zst` -> `x.jsonl`); the file itself otherwise. */
export const plainTwinOf = (file: string): string => (isCompressedTranscript(file) ? file.slice(0, -COMPRESSED_SUFFIX.length) : file);

/**
 * Which of a transcript's twins (files of one name, one compressed or in another folder) is the
 * transcript: the lowest rank. By default the plain file: while Codex writes one from the other,
 * both are there for a moment, and the plain file is what Codex itself reads.
 */
export type TwinRank = (file: string) => number;
export const plainFirst: TwinRank = (file) => (isCompressedTranscript(file) ? 1 : 0);

/**
 * The name twins share: the plain file's, and for a single JSON document (`x.json`) the JSONL file
 * an agent converts it to (`x.jsonl`, Gemini CLI on resume).
 */
const twinNameOf = (file: string): string => {
  const name = path.basename(plainTwinOf(file));
  return name.endsWith('.json') ? `${name}l` : name;
};

/**
 * The files among `files` (one session's, `exists` among them) that a twin of a lower rank
 * hides: twins share their plain file name (`x.jsonl`, `x.jsonl.zst`, `archived/x.jsonl`, `x.json`).
 * Of twins of the same rank the first in `files` is read.
 */
export const hiddenTwins = (files: readonly string[], exists: (file: string) => boolean, rank: TwinRank = plainFirst): ReadonlySet<string> => {
  const readOf = new Map<string, { readonly file: string; readonly rank: number }>();
  for (const file of files) {
    if (!exists(file)) continue;
    const name = twinNameOf(file);
    const current = readOf.get(name);
    const r = rank(file);
    if (current === undefined || r < current.rank) readOf.set(name, { file, rank: r });
  }
  const hidden = new Set<string>();
  for (const file of files) if (exists(file) && readOf.get(twinNameOf(file))?.file !== file) hidden.add(file);
  return hidden;
};

const NEWLINE = Buffer.from('\n');

/**
 * Decompressed in chunks, a transcript holds only the decoder's window in memory, so the cap is
 * far above a whole-file decoder's: Codex rollouts of a long thread reach 1-2 GB of text, and a
 * plain one that size is read too.
 */
const MAX_DECOMPRESSED_BYTES = 16 * 1024 ** 3;

/** Compressed bytes handed to the decoder at a time: the lines of each slice go on before the next. */
const INPUT_SLICE_BYTES = 256 * 1024;

/** Why a compressed transcript cannot be read: its message starts with "zstd:" and says what is wrong. */
export class CompressedReadError extends Error {
  override readonly name = 'CompressedReadError';
}

/** The decoder's error codes, as messages that say what a reader of the diagnostic can act on. */
const DECODER_ERRORS: Readonly<Record<number, string>> = {
  0: 'invalid compressed data',
  1: 'window size too large',
  2: 'invalid block type',
  3: 'invalid entropy table',
  4: 'match distance beyond the data decoded so far',
  5: 'the file ends inside a frame (truncated)',
};

const decoderError = (error: unknown): CompressedReadError => {
  const code = (error as { code?: unknown } | undefined)?.code;
  const what = typeof code === 'number' ? DECODER_ERRORS[code] : undefined;
  // Anything else the decoder throws on a malformed file (a range error, say) is a damaged file too.
  return new CompressedReadError(`zstd: ${what ?? (error instanceof Error ? error.message : String(error))}`, { cause: error });
};

/**
 * `readLinesFrom` for a compressed transcript: its lines, in chunks of the decompressed text as
 * the decoder produces them. Offsets count compressed bytes (what the file's size and the
 * checkpoint compare), and no offset but the file's end means anything: every chunk but the last
 * is handed on with `consumed` undefined (no checkpoint may be taken there), the last with the
 * file's size. A last line without its newline is a whole line here: nothing will be appended.
 * Throws a CompressedReadError for a file that does not decompress (the caller reports it).
 * Frames may be concatenated and mixed with skippable frames; their checksums are not verified.
 */
export const readCompressedLines = async (
  file: string,
  onChunk: (items: readonly LineItem[], consumed: number | undefined) => void,
  options: ReadOptions = {},
): Promise<{ readonly consumed: number; readonly end: number }> => {
  const input = readFileSync(file);
  if (input.length === 0) throw new CompressedReadError('zstd: empty file');
  // Loaded with the first compressed transcript: most machines have none.
  const { Decompress } = await import('fzstd');
  const splitter = createLineSplitter(0, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
  let blocks: Uint8Array[] = [];
  const decoder = new Decompress((block) => {
    blocks.push(block);
  });
  let produced = 0;
  let endsWithNewline = true;
  for (let at = 0; at < input.length; at += INPUT_SLICE_BYTES) {
    const end = Math.min(at + INPUT_SLICE_BYTES, input.length);
    try {
      decoder.push(input.subarray(at, end), end === input.length);
    } catch (error) {
      throw decoderError(error);
    }
    const decoded = blocks;
    blocks = [];
    for (const block of decoded) {
      if (block.length === 0) continue;
      produced += block.length;
      if (produced > MAX_DECOMPRESSED_BYTES) throw new CompressedReadError(`zstd: decompresses to more than ${MAX_DECOMPRESSED_BYTES} bytes`);
      endsWithNewline = block[block.length - 1] === 0x0a;
      // The decoder hands out a new array per block (at most 128 KiB): lines may be views into it.
      const items = splitter.push(Buffer.from(block.buffer, block.byteOffset, block.length));
      if (items.length > 0) onChunk(items, undefined);
    }
    await yieldIfDue();
  }
  onChunk(endsWithNewline ? [] : splitter.push(NEWLINE), input.length);
  return { consumed: input.length, end: input.length };
};
