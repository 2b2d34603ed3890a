import { describe, expect, it } from 'vitest';
import { makeCtx } from '../helpers/source-harness.js';
import { makeTempHome } from '../helpers/temp-home.js';
import { damage, FUZZ_AGENTS, pickSeed, writePlaced } from './files-agents.js';
import { badDiagnostics, insanities, replay } from './files-checks.js';
import { onePass } from './files-passes.js';
import { mutate } from './files-mutate.js';
import { fuzzCases, mulberry32 } from './prng.js';

/**
 * Property 1: whatever a transcript holds, a one-shot pass completes with one `ready`, the
 * observable never errors, and every session it yields has finite, non-negative counts and
 * finite times, with a wire view that serialises without a number turning into null.
 */
const CASES = fuzzCases(30, 0x5eed_0001);

describe.each(FUZZ_AGENTS)('$agent: a pass over a damaged transcript', (agent) => {
  it(`never throws and yields sane sessions (${CASES.length} cases)`, async () => {
    for (const seed of CASES) {
      const rng = mulberry32(seed);
      const home = await makeTempHome('agentwatch-fuzz-');
      try {
        const picked = pickSeed(rng, agent);
        const placed = agent.locate(home, picked, rng);
        const damaged = damage(rng, picked, (r, bytes) => mutate(r, bytes));
        await writePlaced(placed, damaged.seed, damaged.bytes);
        const pass = await onePass(agent.source, makeCtx(home.env));
        const why = replay('never-throws', agent.agent, seed, picked.name, damaged.steps);
        expect(pass.errors, why).toEqual([]);
        expect(pass.events.filter((e) => e.type === 'ready'), why).toEqual([{ type: 'ready', agent: agent.agent }]);
        expect(badDiagnostics(pass.events), why).toEqual([]);
        const problems = [...pass.sessions.values()].flatMap((s) => insanities(s).map((p) => `${s.sessionId}: ${p}`));
        expect(problems, why).toEqual([]);
      } finally {
        await home.cleanup();
      }
    }
  });
});
