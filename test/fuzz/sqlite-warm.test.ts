import { rmSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import {
  buildTemplate,
  checkPass,
  databaseDiagnostics,
  diagnosticCounts,
  differingSessions,
  FLAVOUR,
  FLAVOURS,
  forEachCase,
  fuzzTimeoutMs,
  openCopy,
  openForWrites,
  runWithCache,
  statesOf,
  withoutLinked,
  type Flavour,
  type Pass,
  type Rng,
} from './sqlite-helpers.js';
import { mutate, touchOwner, type Mutation } from './sqlite-mutations.js';

/**
 * Property 3 over random damage: a pass restored from the discovery cache folds to the same
 * sessions, with the same diagnostic counts, as a cold pass of the same database, whether the
 * damage was there before the cache was written or was made while nobody watched.
 */

const RUNS = 6;
const SEEDS: Readonly<Record<Flavour, number>> = { opencode: 31_000, 'opencode-v2': 32_000, kilo: 33_000, cursor: 34_000 };

const expectWarmEqualsCold = (flavour: Flavour, warm: Pass, cold: Pass, owner: string | undefined): void => {
  const failure = (pass: Pass): string | undefined => databaseDiagnostics(pass.events)[0]?.code;
  if (failure(cold) !== failure(warm)) throw new Error(`database diagnostics differ: cold ${failure(cold)}, warm ${failure(warm)}`);
  // A database it cannot read: the sessions restored from the cache stay, as read before (the failure is reported).
  if (failure(cold) !== undefined) return;
  const differing = differingSessions(withoutLinked(flavour, owner, statesOf(cold.events)), withoutLinked(flavour, owner, statesOf(warm.events)));
  if (differing.length > 0) {
    const id = differing[0] ?? '';
    throw new Error(`warm and cold passes differ on ${differing.join(', ')}: cold ${JSON.stringify(statesOf(cold.events).get(id))?.slice(0, 700)}, warm ${JSON.stringify(statesOf(warm.events).get(id))?.slice(0, 700)}`);
  }
  const [w, c] = [diagnosticCounts(warm.events), diagnosticCounts(cold.events)];
  if (!isDeepStrictEqual(w, c)) throw new Error(`diagnostic counts differ: cold ${JSON.stringify(c)}, warm ${JSON.stringify(w)}`);
};

describe.each(FLAVOURS)('%s database: a warm start equals the cold pass', (flavour) => {
  let home: TempHome;
  let template = '';
  let dbPath = '';
  beforeAll(async () => {
    home = await makeTempHome(`aw-fuzz-warm-${flavour}-`);
    template = path.join(home.root, 'template.db');
    buildTemplate(flavour, template);
    dbPath = FLAVOUR[flavour].dbPath(home.env);
  });
  afterAll(() => home.cleanup());

  /** An environment of its own discovery cache (one per pass that must start cold). */
  const envWithCache = (name: string): Record<string, string> => {
    const dir = path.join(home.root, 'caches', name);
    rmSync(dir, { recursive: true, force: true });
    return { ...home.env, XDG_CACHE_HOME: dir };
  };

  /** One random mutation of the database at `dbPath`; `touch`: marked written as its agent marks a write. */
  const damage = (rng: Rng, touch: boolean): Mutation => {
    const db = openForWrites(dbPath);
    try {
      const mutation = mutate(db, rng, flavour);
      if (touch) touchOwner(db, flavour, mutation, FLAVOUR[flavour].now);
      return mutation;
    } finally {
      db.close();
    }
  };

  it('restored from the cache: the same sessions and diagnostic counts as the cold pass that wrote it', async () => {
    await forEachCase(RUNS, SEEDS[flavour], async (rng, seed, note) => {
      openCopy(template, dbPath).close();
      const mutation = damage(rng, false);
      note(mutation.what);
      const env = envWithCache(`restore-${seed}`);
      const cold = await runWithCache(flavour, env);
      checkPass(cold, dbPath);
      const warm = await runWithCache(flavour, env);
      checkPass(warm, dbPath);
      expectWarmEqualsCold(flavour, warm, cold, undefined);
    });
  }, fuzzTimeoutMs(RUNS, 400));

  it('damaged while nobody watched: the warm start (restores and replays) equals a cold pass of the damaged file', async () => {
    await forEachCase(RUNS, SEEDS[flavour] + 500, async (rng, seed, note) => {
      openCopy(template, dbPath).close();
      const env = envWithCache(`changed-${seed}`);
      checkPass(await runWithCache(flavour, env), dbPath);
      // In place, as the agent writes (the listing stamps see its writes: touchOwner).
      const mutation = damage(rng, true);
      note(mutation.what);
      const warm = await runWithCache(flavour, env);
      checkPass(warm, dbPath);
      const cold = await runWithCache(flavour, envWithCache(`changed-${seed}-cold`));
      checkPass(cold, dbPath);
      expectWarmEqualsCold(flavour, warm, cold, mutation.owner);
    });
  }, fuzzTimeoutMs(RUNS, 400));
});
