import { rename, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseAmpThread } from '../../src/sources/amp/parse.js';
import { makeCtx, start, waitFor } from '../helpers/source-harness.js';
import { makeTempHome } from '../helpers/temp-home.js';
import { foldedIn } from './files-append.js';
import { fuzzAgent, type Seed, writePlaced } from './files-agents.js';
import { replay } from './files-checks.js';
import { onePass } from './files-passes.js';
import { WIDE_TEXT } from './files-mutate.js';
import { fuzzCases, mulberry32, randInt, type Rng } from './prng.js';

/**
 * Property 2 for amp, whose threads are JSON documents Amp rewrites whole: a watching source that
 * sees a thread grow through several versions, some caught torn (a prefix of the next one on
 * disk), ends where one read of the final version ends. A torn version is one E_JUNK_LINE and
 * leaves the session as the version before it made it.
 */
const CASES = fuzzCases(4, 0x5eed_6005);
const amp = fuzzAgent('amp');

interface Thread {
  readonly messages: unknown[];
  [key: string]: unknown;
}

/** Seeds whose thread has messages (an empty thread shows no session). */
const seeds = amp.seeds.filter((s) => parseAmpThread(s.bytes.toString('utf8'), 'x').kind === 'thread');

/**
 * The versions a thread went through: its first k messages, k growing to all of them (from the
 * first that shows a session); the last may add wide text to the title.
 */
const versionsOf = (rng: Rng, seed: Seed): Buffer[] => {
  const thread = JSON.parse(seed.bytes.toString('utf8')) as Thread;
  const n = thread.messages.length;
  const counts = [...new Set(Array.from({ length: randInt(rng, 1, 3) }, () => randInt(rng, 1, n)))].sort((a, b) => a - b);
  if (counts.at(-1) !== n) counts.push(n);
  return counts
    .map((k, i) =>
      Buffer.from(JSON.stringify({ ...thread, ...(i === counts.length - 1 && rng() < 0.5 ? { title: `${String(thread.title ?? '')} ${WIDE_TEXT}` } : {}), messages: thread.messages.slice(0, k) }, null, rng() < 0.5 ? 2 : undefined)),
    )
    .filter((version) => parseAmpThread(version.toString('utf8'), 'x').kind === 'thread');
};

describe('amp: a thread rewritten while watched, some versions caught torn', () => {
  it(`ends as one read of the final version (${CASES.length} cases)`, async () => {
    for (const seed of CASES) {
      const rng = mulberry32(seed);
      const picked = seeds[randInt(rng, 0, seeds.length - 1)] as Seed;
      const versions = versionsOf(rng, picked);
      const watchedHome = await makeTempHome('agentwatch-fuzz-amp-');
      const onceHome = await makeTempHome('agentwatch-fuzz-amp-once-');
      const placed = amp.locate(watchedHome, picked, rng);
      // Before the source starts: a threads directory that does not exist yet is only looked for every few seconds.
      await writePlaced(placed, picked, versions[0] as Buffer);
      const run = start(amp.source, makeCtx(watchedHome.env));
      try {
        await waitFor('ready', () => run.isReady());
        const steps: string[] = [];
        let torn = 0;
        for (const version of versions) {
          const sessionBefore = JSON.stringify([...run.sessions().values()]);
          if (rng() < 0.5) {
            // Caught mid-rewrite: a prefix of the next version is on disk.
            const cut = randInt(rng, 1, version.length - 2);
            steps.push(`torn ${cut}/${version.length}`);
            const diagnostics = run.diagnostics().length;
            await replace(placed.file, version.subarray(0, cut));
            torn += 1;
            await waitFor('the torn version', () => run.diagnostics().length > diagnostics);
            expect(JSON.parse(JSON.stringify([...run.sessions().values()])), `${steps.join(' | ')}: the torn version changed the session`).toEqual(JSON.parse(sessionBefore));
          }
          steps.push(`version of ${version.length} bytes`);
          const seen = run.events.length;
          await replace(placed.file, version);
          await waitFor('the version', () => run.events.slice(seen).some((e) => e.type === 'checkpoint' && e.checkpoint.path === placed.file && e.checkpoint.size === version.length));
        }
        const why = replay('amp rewrites', 'amp', seed, picked.name, steps);
        const oncePlaced = amp.locate(onceHome, picked, rng);
        await writePlaced(oncePlaced, picked, versions.at(-1) as Buffer);
        const once = await onePass(amp.source, makeCtx(onceHome.env));
        expect(foldedIn(run.events, watchedHome), why).toEqual(foldedIn(once.events, onceHome));
        expect(run.diagnostics().filter((d) => d.code === 'E_JUNK_LINE' && d.path === placed.file), why).toHaveLength(torn);
        expect(run.errors, why).toEqual([]);
      } finally {
        run.subscription.unsubscribe();
        await watchedHome.cleanup();
        await onceHome.cleanup();
      }
    }
  });
});

/** Amp's own way of rewriting: a temp file renamed over the thread. */
const replace = async (file: string, bytes: Buffer): Promise<void> => {
  await writeFile(`${file}.tmp`, bytes);
  await rename(`${file}.tmp`, file);
};
