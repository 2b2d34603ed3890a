import { describe, expect, it } from 'vitest';
import { makeTempHome } from '../helpers/temp-home.js';
import { appendToGrok, appendToTracker, foldedIn, pieces, readOptionsOf, withoutTimes, type Appending } from './files-append.js';
import { damage, FUZZ_AGENTS, type FuzzAgent, pickSeed } from './files-agents.js';
import { diagnosticCounts, replay } from './files-checks.js';
import { mutate } from './files-mutate.js';
import { fuzzCases, mulberry32 } from './prng.js';

/**
 * Property 2: agents append while we read. A transcript written in random pieces (cut anywhere:
 * mid-line, mid-character), synced after each piece as the live source syncs on a watch event,
 * folds to what one read of the final file folds to: the same sessions, counts, tokens, names,
 * times, and the same diagnostic counts.
 *
 * The rule for diagnostics: only complete lines are read (a partial last line waits for its
 * newline), so each line is judged once, whatever pieces it came in: the counts are equal.
 * grok's times are the exception by design (withoutTimes).
 */
const CLEAN = fuzzCases(15, 0x5eed_0002);
const DAMAGED = fuzzCases(25, 0x5eed_1002);

const runCase = async (agent: FuzzAgent, seed: number, clean: boolean): Promise<void> => {
  const rng = mulberry32(seed);
  const picked = pickSeed(rng, agent);
  const final = clean ? { seed: picked, bytes: picked.bytes, steps: ['clean'] } : damage(rng, picked, (r, bytes) => mutate(r, bytes));
  const layoutSeed = rng() * 2 ** 32;
  const read = readOptionsOf(rng);
  const parts = pieces(rng, final.bytes);
  const why = replay('incremental == whole', agent.agent, seed, picked.name, [...final.steps, `pieces ${parts.map((p) => p.length).join('+')}`, `read ${JSON.stringify(read)}`]);
  const appendingHome = await makeTempHome('agentwatch-fuzz-inc-');
  const wholeHome = await makeTempHome('agentwatch-fuzz-whole-');
  try {
    // The same layout (main or sub-agent transcript) in both homes.
    const inHome = (home: typeof appendingHome): Appending => ({ seed: final.seed, bytes: final.bytes, read, ...agent.locate(home, final.seed, mulberry32(layoutSeed)) });
    const appending = inHome(appendingHome);
    const whole = inHome(wholeHome);
    const [inPieces, atOnce] = agent.spec
      ? [await appendToTracker(agent, appendingHome, appending, parts), await appendToTracker(agent, wholeHome, whole, [final.bytes])]
      : [await appendToGrok(appending, parts), await appendToGrok(whole, [final.bytes])];
    const view = agent.agent === 'grok' ? withoutTimes : <T>(all: T): T => all;
    expect(view(foldedIn(inPieces, appendingHome)), why).toEqual(view(foldedIn(atOnce, wholeHome)));
    expect(diagnosticCounts(inPieces), why).toEqual(diagnosticCounts(atOnce));
  } finally {
    await appendingHome.cleanup();
    await wholeHome.cleanup();
  }
};

// amp rewrites whole documents (files-amp-rewrites.test.ts).
describe.each(FUZZ_AGENTS.filter((a) => a.agent !== 'amp'))('$agent: a transcript appended in pieces', (agent) => {
  it(`folds as one read of the final file, clean (${CLEAN.length} cases)`, async () => {
    for (const seed of CLEAN) await runCase(agent, seed, true);
  });
  it(`folds as one read of the final file, damaged (${DAMAGED.length} cases)`, async () => {
    for (const seed of DAMAGED) await runCase(agent, seed, false);
  });
});
