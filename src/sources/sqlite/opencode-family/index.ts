import type { Ctx, Source } from '../../../core/contracts.js';
import { pollDatabase } from '../poll-source.js';
import type { FamilySpec } from './map.js';
import { openFamilyReader } from './reader.js';

export interface FamilySourceOptions {
  /** Poll interval; tests inject a short one. */
  readonly intervalMs?: number;
}

/**
 * A source for an agent of the opencode family: `dbPathOf` resolves the database from the
 * environment of the context the source is started with.
 */
export const makeFamilySource =
  (spec: Omit<FamilySpec, 'dbPath'>, dbPathOf: (ctx: Ctx) => string, options: FamilySourceOptions = {}): Source =>
  (ctx) =>
    pollDatabase(ctx, {
      agent: spec.agent,
      dbPath: dbPathOf(ctx),
      openReader: openFamilyReader(spec),
      ...(options.intervalMs !== undefined ? { intervalMs: options.intervalMs } : {}),
    });
