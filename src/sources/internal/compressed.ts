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
 * The files among `files` (one session's, `exists` among them) that a twin of a lower rank
 * hides: twins share their plain file name (`x.jsonl`, `x.jsonl.zst`, `archived/x.jsonl`).
 * Of twins of the same rank the first in `files` is read.
 */
export const hiddenTwins = (files: readonly string[], exists: (file: string) => boolean, rank: TwinRank = plainFirst): ReadonlySet<string> => {
  const readOf = new Map<string, { readonly file: string; readonly rank: number }>();
  for (const file of files) {
    if (!exists(file)) continue;
    const name = path.basename(plainTwinOf(file));
    const current = readOf.get(name);
    const r = rank(file);
    if (current === undefined || r < current.rank) readOf.set(name, { file, rank: r });
  }
  const hidden = new Set<string>();
  for (const file of files) if (exists(file) && readOf.get(path.basename(plainTwinOf(file)))?.file !== file) hidden.add(file);
  return hidden;
};

const NEWLINE = Buffer.from('\n');

/**
 * Decompressed in chunks, a transcript holds only the decoder's window in memory, so the cap is
 * far above the decoder's default: Codex rollouts of a long thread reach 1-2 GB of text, and a
 * plain one that size is read too.
 */
const MAX_DECOMPRESSED_BYTES = 16 * 1024 ** 3;

/**
 * `readLinesFrom` for a compressed transcript: its lines, in chunks of the decompressed text as
 * the decoder produces them. Offsets count compressed bytes (what the file's size and the
 * checkpoint compare), and no offset but the file's end means anything: every chunk but the last
 * is handed on with `consumed` undefined (no checkpoint may be taken there), the last with the
 * file's size. A last line without its newline is a whole line here: nothing will be appended.
 * Throws a ZstdError for a file that does not decompress (the caller reports it).
 */
export const readCompressedLines = async (
  file: string,
  onChunk: (items: readonly LineItem[], consumed: number | undefined) => void,
  options: ReadOptions = {},
): Promise<{ readonly consumed: number; readonly end: number }> => {
  const input = readFileSync(file);
  // Loaded with the first compressed transcript: most machines have none.
  const { decompressZstdChunks } = await import('../../util/zstd/index.js');
  const splitter = createLineSplitter(0, options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
  let endsWithNewline = true;
  for (const chunk of decompressZstdChunks(input, { maxOutputBytes: MAX_DECOMPRESSED_BYTES })) {
    if (chunk.length === 0) continue;
    endsWithNewline = chunk[chunk.length - 1] === 0x0a;
    // Lines are views into the chunk, handed on before the decoder reuses its window.
    const items = splitter.push(chunk);
    if (items.length > 0) onChunk(items, undefined);
    await yieldIfDue();
  }
  onChunk(endsWithNewline ? [] : splitter.push(NEWLINE), input.length);
  return { consumed: input.length, end: input.length };
};
