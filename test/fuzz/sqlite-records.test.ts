import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { SessionState } from '../../src/core/session.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { buildTemplate, checkContained, checkPass, FLAVOUR, FLAVOURS, forEachCase, fuzzTimeoutMs, openCopy, runOnce, statesOf, type Flavour } from './sqlite-helpers.js';
import { mutate } from './sqlite-mutations.js';

/**
 * Properties 1, 2 and 4 over random damage to the records of real fixture databases (OpenCode
 * 1.x and 2.x, Kilo, Cursor): every pass completes with `ready` and events of the contract; a
 * damaged record is a counted diagnostic of its own session and leaves the others as they were.
 */

const RUNS = 40;
const SEEDS: Readonly<Record<Flavour, number>> = { opencode: 1_000, 'opencode-v2': 2_000, kilo: 3_000, cursor: 4_000 };

describe.each(FLAVOURS)('%s database with one damaged record, table or column', (flavour) => {
  let home: TempHome;
  let template = '';
  let dbPath = '';
  let base: Map<string, SessionState> = new Map();
  beforeAll(async () => {
    home = await makeTempHome(`aw-fuzz-${flavour}-`);
    template = path.join(home.root, 'template.db');
    buildTemplate(flavour, template);
    dbPath = FLAVOUR[flavour].dbPath(home.env);
    openCopy(template, dbPath).close();
    const pass = runOnce(flavour, home.env);
    checkPass(pass, dbPath);
    base = statesOf(pass.events);
  });
  afterAll(() => home.cleanup());

  it('never throws, never errors; a bad record is a diagnostic of its session only', async () => {
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
