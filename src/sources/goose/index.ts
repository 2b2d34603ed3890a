import type { Source } from '../contracts.js';
import { pollDatabase } from '../sqlite/poll-source.js';
import { goose as gooseAgent, gooseResumeCommand } from './descriptor.js';
import { gooseDbPath } from './paths.js';
import { openGooseReader } from './reader.js';

export interface GooseSourceOptions {
  /** Poll interval; tests inject a short one. */
  readonly intervalMs?: number;
}

/** Which agent and how to resume one of its sessions (the search index reads the same database). */
export const GOOSE_READER = openGooseReader({ resumeCommand: gooseResumeCommand });

/** Goose sessions from its `sessions.db` (docs/formats/goose.md), polled read-only. */
export const makeGooseSource =
  (options: GooseSourceOptions = {}): Source =>
  (ctx) =>
    pollDatabase(ctx, {
      agent: 'goose',
      label: gooseAgent.label,
      dbPath: gooseDbPath(ctx.env, ctx.platform),
      openReader: GOOSE_READER,
      ...(options.intervalMs !== undefined ? { intervalMs: options.intervalMs } : {}),
    });

export const goose: Source = makeGooseSource();
