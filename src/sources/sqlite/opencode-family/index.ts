import type { Ctx, Source } from '../../contracts.js';
import { pollManyDatabases } from '../many-databases.js';
import type { FamilySpec } from './map.js';
import { openFamilyReader } from './reader.js';

export interface FamilySourceOptions {
  /** Poll interval; tests inject a short one. */
  readonly intervalMs?: number;
}

/**
 * A source for an agent of the opencode family: `dbPathsOf` resolves its databases (one per
 * release channel, opencode/paths.ts) from the environment of the context the source is started
 * with; each is polled on its own, and a channel's database that appears later (a user tries a
 * nightly build while agentwatch runs) is polled from then on (many-databases.ts).
 */
export const makeFamilySource = (spec: Omit<FamilySpec, 'dbPath'>, dbPathsOf: (ctx: Ctx) => readonly string[], options: FamilySourceOptions = {}): Source => {
  const openReader = openFamilyReader(spec);
  return pollManyDatabases({
    agent: spec.agent,
    label: spec.label,
    databasesOf: (ctx) => dbPathsOf(ctx).map((dbPath) => ({ dbPath, openReader })),
    ...(options.intervalMs !== undefined ? { intervalMs: options.intervalMs } : {}),
  });
};
