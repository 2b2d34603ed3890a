import { describe, expect, it } from 'vitest';
import { openDiscoveryCache, type DiscoveryCache } from '../../src/sources/internal/cache.js';
import { makeTempHome } from '../helpers/temp-home.js';
import { appendToTracker, atRest, claudeSummaryPending, foldedIn, pieces, readOptionsOf, type Appending } from './files-append.js';
import { FUZZ_AGENTS, type FuzzAgent, pickSeed } from './files-agents.js';
import { diagnosticCounts, replay } from './files-checks.js';
import { fuzzCases, mulberry32 } from './prng.js';

/**
 * Property 2, resumed: a monitor at rest lets the parser of a file go once its state is persisted
 * (file-tracker.ts `park`; a warm start resumes the same way), and a later append is read by a new
 * parser that starts from the persisted state. A transcript appended in pieces, parked at random
 * where the agent paused, folds as one read of the final file.
 *
 * The rules: real transcripts (a damaged one is property 2 with the live parser); parked only at
 * rest (files-append.ts `atRest`) and, for claude, not while a summary waits for its leaf: a new
 * parser knows what the state holds, not what the lines before it said about the next ones (known
 * gaps, reported). An unknown record type seen before and after a resume is counted once more
 * (the parser's once-per-file memory starts empty; reported): E_UNKNOWN_RECORD may only grow.
 */
const CASES = fuzzCases(20, 0x5eed_2002);

const runCase = async (agent: FuzzAgent, seed: number, cache: DiscoveryCache): Promise<void> => {
  const rng = mulberry32(seed);
  const picked = pickSeed(rng, agent);
  const layoutSeed = rng() * 2 ** 32;
  // No small line cap: a record over it is skimmed, and its type only does not tell a new parser enough.
  const read = readOptionsOf(rng, false);
  const parts = pieces(rng, picked.bytes);
  const parkAt = (offset: number): boolean => rng() < 0.6 && atRest(picked.bytes, offset) && !(agent.agent === 'claude' && claudeSummaryPending(picked.bytes, offset));
  const why = replay('parked incremental == whole', agent.agent, seed, picked.name, [`pieces ${parts.map((p) => p.length).join('+')}`, `read ${JSON.stringify(read)}`]);
  const appendingHome = await makeTempHome('agentwatch-fuzz-park-');
  const wholeHome = await makeTempHome('agentwatch-fuzz-whole-');
  try {
    const inHome = (home: typeof appendingHome): Appending => ({ seed: picked, bytes: picked.bytes, read, ...agent.locate(home, picked, mulberry32(layoutSeed)) });
    const inPieces = await appendToTracker(agent, appendingHome, { ...inHome(appendingHome), park: { at: parkAt, cache } }, parts);
    const atOnce = await appendToTracker(agent, wholeHome, inHome(wholeHome), [picked.bytes]);
    expect(foldedIn(inPieces, appendingHome), why).toEqual(foldedIn(atOnce, wholeHome));
    const { 'E_UNKNOWN_RECORD': _parkedUnknown, ...parked } = byCode(diagnosticCounts(inPieces));
    const { 'E_UNKNOWN_RECORD': _wholeUnknown, ...whole } = byCode(diagnosticCounts(atOnce));
    expect(parked, why).toEqual(whole);
    expect(_parkedUnknown ?? 0, why).toBeGreaterThanOrEqual(_wholeUnknown ?? 0);
  } finally {
    await appendingHome.cleanup();
    await wholeHome.cleanup();
  }
};

/** `agent:code` counts by code (one agent per run). */
const byCode = (counts: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(counts).map(([key, n]) => [key.split(':')[1] as string, n]));

describe.each(FUZZ_AGENTS.filter((a) => a.spec !== undefined))('$agent: a transcript appended in pieces, its parser parked between them', (agent) => {
  it(`folds as one read of the final file (${CASES.length} cases)`, async () => {
    const home = await makeTempHome('agentwatch-fuzz-park-cache-');
    const cache = openDiscoveryCache(home.env);
    try {
      for (const seed of CASES) await runCase(agent, seed, cache);
    } finally {
      cache.close();
      await home.cleanup();
    }
  });
});
