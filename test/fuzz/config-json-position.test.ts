import { describe, expect, it } from 'vitest';
import { jsonErrorOffset } from '../../src/config/json-error-offset.js';
import { readLenient } from '../../src/config/json-lenient.js';
import { damageJsonText, randomJson } from './input-helpers.js';
import { fuzzRuns, fuzzSeed, mulberry32 } from './prng.js';

/**
 * The scanner that places a JSON error in a config file (json-error-offset.ts) against V8's own
 * parser: it finds no error exactly when JSON.parse succeeds, and where V8 names a position, the
 * same one. A failure prints its seed (AGENTWATCH_FUZZ_SEED=<seed> AGENTWATCH_FUZZ_RUNS=1 replays it).
 */

const RUNS = fuzzRuns(3000);
const BASE_SEED = fuzzSeed(0x150_0ff5);

describe('fuzz: the JSON error scanner agrees with JSON.parse', () => {
  it(`${RUNS} damaged JSON texts (base seed ${BASE_SEED})`, () => {
    const failures: string[] = [];
    let positioned = 0;
    for (let i = 0; i < RUNS; i += 1) {
      const seed = (BASE_SEED + i) >>> 0;
      const rng = mulberry32(seed);
      const { text } = damageJsonText(rng, JSON.stringify({ document: randomJson(rng, 4) }, null, rng() < 0.5 ? 2 : 0));
      const found = jsonErrorOffset(text);
      let v8: number | undefined;
      try {
        JSON.parse(text);
      } catch (error) {
        const at = /in JSON at position (\d+)/.exec((error as Error).message);
        v8 = at ? Number(at[1]) : -1;
      }
      if (v8 === undefined ? found !== undefined : found === undefined) failures.push(`seed ${seed}: JSON.parse ${v8 === undefined ? 'accepts' : 'refuses'} it, the scanner says ${String(found)}: ${JSON.stringify(text.slice(0, 300))}`);
      else if (v8 !== undefined && v8 >= 0) {
        positioned += 1;
        if (found !== v8) failures.push(`seed ${seed}: JSON.parse says position ${v8}, the scanner ${String(found)}: ${JSON.stringify(text.slice(Math.max(0, v8 - 40), v8 + 40))}`);
      }
    }
    expect(failures, `${failures.length} of ${RUNS} cases failed\n${failures.slice(0, 10).join('\n')}`).toEqual([]);
    if (RUNS >= 500) expect(positioned).toBeGreaterThan(RUNS / 10);
  });
});

describe('fuzz: the lenient reading (json-lenient.ts) of a config file', () => {
  it(`${RUNS} texts: valid ones read as JSON.parse reads them; damaged ones get a first mistake where JSON.parse places it, or at the trailing comma before it (base seed ${BASE_SEED})`, () => {
    const failures: string[] = [];
    for (let i = 0; i < RUNS; i += 1) {
      const seed = (BASE_SEED + i) >>> 0;
      const rng = mulberry32(seed);
      const valid = JSON.stringify({ document: randomJson(rng, 4) }, null, rng() < 0.5 ? 2 : 0);
      const read = readLenient(valid);
      if (read.problems.length > 0 || JSON.stringify(read.value) !== JSON.stringify(JSON.parse(valid))) failures.push(`seed ${seed}: a valid text read otherwise: ${JSON.stringify(valid.slice(0, 200))}`);
      const { text } = damageJsonText(rng, valid);
      const at = jsonErrorOffset(text);
      if (at === undefined) continue;
      const first = readLenient(text).problems[0];
      const before = text.slice(0, at).trimEnd();
      const trailingComma = first !== undefined && before.endsWith(',') && first.offset === before.length - 1;
      if (first === undefined || (first.offset !== at && !trailingComma)) failures.push(`seed ${seed}: JSON.parse places it at ${at}, the lenient reading at ${String(first?.offset)}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}`);
    }
    expect(failures, `${failures.length} of ${RUNS} cases failed\n${failures.slice(0, 10).join('\n')}`).toEqual([]);
  });
});
