import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/core/session.js';
import { makeCtx } from '../helpers/source-harness.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { atRest, claudeSummaryPending, foldedIn, withoutTimes } from './files-append.js';
import { damage, FUZZ_AGENTS, type FuzzAgent, pickSeed, writePlaced } from './files-agents.js';
import { diagnosticCounts, replay } from './files-checks.js';
import { passWithCache } from './files-passes.js';
import { mutate } from './files-mutate.js';
import { fuzzCases, mulberry32, pick, randInt, type Rng } from './prng.js';

/**
 * Property 3: a start restored from the discovery cache (warm) shows what a start that read
 * every file (cold) shows: the same sessions, field for field, and the same diagnostic counts
 * (restored with each checkpoint, kept-diagnostics.ts).
 *
 * 3b: the file grew between the two starts (the agent wrote while agentwatch was not running):
 * the warm start resumes at the cached offset and reads the rest, and shows what a cold start
 * of the final file shows. Same rules as the parked property (files-parked.test.ts): real
 * transcripts, a resume point where the agent paused, E_UNKNOWN_RECORD may only grow; amp
 * re-reads a changed document whole; grok's times depend on how its lines were batched.
 */
const SAME = fuzzCases(6, 0x5eed_3003);
const GROWN = fuzzCases(6, 0x5eed_4003);

/** A pass as the composition root wires the cache: restores what the cache holds, persists on stop. */
const pass = (agent: FuzzAgent, home: TempHome, cacheDir?: string): Promise<SessionEvent[]> =>
  passWithCache(agent.source, makeCtx(cacheDir ? { ...home.env, XDG_CACHE_HOME: cacheDir } : home.env));

const byCode = (events: readonly SessionEvent[]): Record<string, number> =>
  Object.fromEntries(Object.entries(diagnosticCounts(events)).map(([key, n]) => [key.split(':')[1] as string, n]));

describe.each(FUZZ_AGENTS)('$agent: warm start from the discovery cache', (agent) => {
  it(`shows what a cold start shows (${SAME.length} cases, damaged files)`, async () => {
    for (const seed of SAME) {
      const rng = mulberry32(seed);
      const picked = pickSeed(rng, agent);
      const damaged = rng() < 0.2 ? { seed: picked, bytes: picked.bytes, steps: ['clean'] } : damage(rng, picked, (r, bytes) => mutate(r, bytes));
      const home = await makeTempHome('agentwatch-fuzz-warm-');
      try {
        await writePlaced(agent.locate(home, damaged.seed, rng), damaged.seed, damaged.bytes);
        const cold = await pass(agent, home);
        const warm = await pass(agent, home);
        const why = replay('warm == cold', agent.agent, seed, picked.name, damaged.steps);
        expect(warm.some((e) => e.type === 'restore') || !cold.some((e) => e.type === 'checkpoint'), `${why}: nothing restored`).toBe(true);
        expect(foldedIn(warm, home), why).toEqual(foldedIn(cold, home));
        expect(diagnosticCounts(warm), why).toEqual(diagnosticCounts(cold));
      } finally {
        await home.cleanup();
      }
    }
  });

  it(`reads what was appended meanwhile and shows what a cold start of the final file shows (${GROWN.length} cases)`, async () => {
    for (const seed of GROWN) {
      const rng = mulberry32(seed);
      const picked = pickSeed(rng, agent);
      const bytes = picked.bytes;
      const cut = cutAtRest(rng, agent, bytes);
      const home = await makeTempHome('agentwatch-fuzz-grown-');
      try {
        const placed = agent.locate(home, picked, rng);
        await writePlaced(placed, picked, bytes.subarray(0, cut));
        await pass(agent, home);
        await appendFile(placed.file, bytes.subarray(cut));
        const warm = await pass(agent, home);
        const cold = await pass(agent, home, path.join(home.root, 'cold-cache'));
        const why = replay('warm after growth == cold', agent.agent, seed, picked.name, [`cut at ${cut}/${bytes.length}`]);
        const view = agent.agent === 'grok' ? withoutTimes : <T>(all: T): T => all;
        expect(view(foldedIn(warm, home)), why).toEqual(view(foldedIn(cold, home)));
        const { E_UNKNOWN_RECORD: warmUnknown, ...warmRest } = byCode(warm);
        const { E_UNKNOWN_RECORD: coldUnknown, ...coldRest } = byCode(cold);
        expect(warmRest, why).toEqual(coldRest);
        expect(warmUnknown ?? 0, why).toBeGreaterThanOrEqual(coldUnknown ?? 0);
      } finally {
        await home.cleanup();
      }
    }
  });
});

/**
 * Where the first start found the file: anywhere in a JSON document (amp: a torn one, read
 * again whole), else a line boundary where the agent paused, plus some bytes of the next line.
 */
const cutAtRest = (rng: Rng, agent: FuzzAgent, bytes: Buffer): number => {
  if (agent.agent === 'amp' || agent.agent === 'grok') return randInt(rng, 0, bytes.length);
  const boundaries = [0];
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) boundaries.push(i + 1);
  const resting = boundaries.filter((b) => atRest(bytes, b) && !(agent.agent === 'claude' && claudeSummaryPending(bytes, b)));
  const at = pick(rng, resting);
  const next = bytes.indexOf(0x0a, at);
  return at + randInt(rng, 0, Math.max(0, (next === -1 ? bytes.length : next) - at));
};
