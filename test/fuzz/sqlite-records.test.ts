import { describe, it } from 'vitest';
import { checkContained, checkPass, FLAVOURS, forEachCase, fuzzTimeoutMs, openCopy, runOnce, type Flavour, useFixtureDatabase } from './sqlite-helpers.js';
import { mutate } from './sqlite-mutations.js';

/**
 * Properties 1, 2 and 4 over random damage to the records of real fixture databases (OpenCode
 * 1.x and 2.x, Kilo, Cursor): every pass completes with `ready` and events of the contract; a
 * damaged record is a counted diagnostic of its own session and leaves the others as they were.
 */

const RUNS = 40;
const SEEDS: Readonly<Record<Flavour, number>> = { opencode: 1_000, 'opencode-v2': 2_000, kilo: 3_000, cursor: 4_000 };

describe.each(FLAVOURS)('%s database with one damaged record, table or column', (flavour) => {
  const fixture = useFixtureDatabase(flavour, 'aw-fuzz');

  it('never throws, never errors; a bad record is a diagnostic of its session only', async () => {
    const { home, template, dbPath, base } = fixture();
    await forEachCase(RUNS, SEEDS[flavour], (rng, _seed, note) => {
      const db = openCopy(template, dbPath);
      let mutation;
      try {
        mutation = mutate(db, rng, flavour);
      } finally {
        db.close();
      }
      note(mutation.what);
      const pass = runOnce(flavour, home.env);
      checkPass(pass, dbPath);
      checkContained(flavour, base, pass, mutation);
    });
  }, fuzzTimeoutMs(RUNS, 10));
});
