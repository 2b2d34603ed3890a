import type { Source } from '../contracts.js';
import { readyWhenAll } from '../internal/ready-when-all.js';
import { pollDatabase } from '../sqlite/poll-source.js';
import { cursor as cursorAgent } from './descriptor.js';
import { cursorDbPath } from './paths.js';
import { openCursorReader } from './reader.js';
import { cursorTranscripts } from './transcripts.js';

export interface CursorSourceOptions {
  /** Poll interval; tests inject a short one. */
  readonly intervalMs?: number;
}

/** The IDE's composer chats alone: the database part (synchronous in a one-shot pass). */
export const makeCursorComposerSource =
  (options: CursorSourceOptions = {}): Source =>
  (ctx) =>
    pollDatabase(ctx, {
      agent: 'cursor',
      label: cursorAgent.label,
      dbPath: cursorDbPath(ctx.env, ctx.platform),
      openReader: openCursorReader,
      // Composers age out of the 48 h window without any write: re-list every 10 minutes.
      relistAfterMs: 10 * 60_000,
      ...(options.intervalMs !== undefined ? { intervalMs: options.intervalMs } : {}),
    });

/**
 * Cursor composer chats from `state.vscdb` (docs/formats/cursor.md), on macOS and Linux alike, and
 * Cursor Agent's transcripts beside them as one source.
 */
export const makeCursorSource =
  (options: CursorSourceOptions = {}): Source =>
  (ctx) =>
    readyWhenAll([makeCursorComposerSource(options)(ctx), cursorTranscripts(ctx)]);

export const cursor: Source = makeCursorSource();
