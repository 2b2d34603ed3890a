import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Source } from '../../src/sources/contracts.js';
import { createAmpSource } from '../../src/sources/amp/index.js';
import { ampThreadsDir } from '../../src/sources/amp/paths.js';
import { claude, claudeSpec } from '../../src/sources/claude/index.js';
import { codex, codexSpec } from '../../src/sources/codex/index.js';
import { createGrokSource } from '../../src/sources/grok/index.js';
import { grokSessionsDir } from '../../src/sources/grok/paths.js';
import type { JsonlAgentSpec } from '../../src/sources/internal/file-parser.js';
import type { SourceCtx } from '../../src/sources/internal/options.js';
import { kimi, kimiSpec } from '../../src/sources/kimi/index.js';
import { pi, piSpec } from '../../src/sources/pi/index.js';
import { FIXTURES, type FileFixtureAgent } from '../helpers/source-harness.js';
import type { TempHome } from '../helpers/temp-home.js';
import { pick, type Rng } from './prng.js';

/**
 * The file agents the fuzz tests run: per agent, seed files taken from its fixtures, where a
 * fuzzed copy goes in a temp HOME, the real source, and for the JSONL engine agents the spec whose
 * file tracker a live source drives.
 */

/** A fixture file to start from; `companions` are the other files of its session directory (grok). */
export interface Seed {
  readonly name: string;
  readonly bytes: Buffer;
  readonly companions?: Readonly<Record<string, Buffer>>;
}

/** Where a fuzzed copy goes in a HOME. */
export interface Placed {
  readonly file: string;
  /** For grok: the session directory (what its reader syncs). */
  readonly dir?: string;
}

export interface FuzzAgent {
  readonly agent: FileFixtureAgent;
  readonly seeds: readonly Seed[];
  readonly source: Source;
  /** Where a fuzzed copy of `seed` goes (a layout chosen with `rng`: main or sub-agent transcript). */
  readonly locate: (home: TempHome, seed: Seed, rng: Rng) => Placed;
  /** The engine spec (claude, codex, pi, kimi): its tracker is driven directly by the incremental property. */
  readonly spec?: (ctx: SourceCtx) => JsonlAgentSpec;
}

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });

const seedsOf = (agent: string, keep: (file: string) => boolean): Seed[] =>
  walk(path.join(FIXTURES, agent))
    .filter(keep)
    .sort()
    .map((file) => ({ name: path.relative(FIXTURES, file), bytes: readFileSync(file) }));

const FUZZ_UUID = '0f0f0f0f-1234-4abc-8def-00000000f022';

/** The id of a rollout's session_meta (its first record), else a fixed one. */
const codexThreadOf = (bytes: Buffer): string => /"type":"session_meta","payload":\{[^\n]*?"id":"([0-9a-f-]{36})"/.exec(bytes.toString('utf8', 0, 4096))?.[1] ?? FUZZ_UUID;
const isTranscript = (file: string): boolean => file.endsWith('.jsonl') && !file.endsWith('session_index.jsonl') && !file.endsWith('prompt_history.jsonl');

/** Copies `seed` (its bytes replaced by `bytes`) and its companions to where `placed` says. */
export const writePlaced = async (placed: Placed, seed: Seed, bytes: Buffer): Promise<void> => {
  await mkdir(path.dirname(placed.file), { recursive: true });
  for (const [name, content] of Object.entries(seed.companions ?? {})) await writeFile(path.join(path.dirname(placed.file), name), content);
  await writeFile(placed.file, bytes);
};

const grokSeeds = (): Seed[] => {
  const root = path.join(FIXTURES, 'grok');
  return walk(root)
    .filter((file) => path.basename(file) === 'chat_history.jsonl')
    .sort()
    .map((file) => {
      const dir = path.dirname(file);
      const companions: Record<string, Buffer> = {};
      for (const name of ['summary.json', 'updates.jsonl']) {
        try {
          if (statSync(path.join(dir, name)).isFile()) companions[name] = readFileSync(path.join(dir, name));
        } catch {
          // Not every session has one.
        }
      }
      return { name: path.relative(FIXTURES, file), bytes: readFileSync(file), companions };
    });
};

export const FUZZ_AGENTS: readonly FuzzAgent[] = [
  {
    agent: 'claude',
    seeds: seedsOf('claude', isTranscript),
    source: claude,
    spec: claudeSpec,
    locate: (home, _seed, rng) => {
      const project = path.join(home.home, '.claude/projects/-home-dev-fuzz');
      return { file: rng() < 0.75 ? path.join(project, `${FUZZ_UUID}.jsonl`) : path.join(project, FUZZ_UUID, 'subagents', 'agent-afuzz00000001.jsonl') };
    },
  },
  {
    agent: 'codex',
    seeds: seedsOf('codex', isTranscript),
    source: codex,
    spec: codexSpec,
    // Named by its thread id, as Codex names a rollout (the file's id and its session_meta's agree).
    locate: (home, seed) => ({ file: path.join(home.home, '.codex/sessions/2026/01/02', `rollout-2026-01-02T03-04-05-${codexThreadOf(seed.bytes)}.jsonl`) }),
  },
  {
    agent: 'pi',
    seeds: seedsOf('pi', isTranscript),
    source: pi,
    spec: piSpec,
    locate: (home, _seed, rng) => {
      const project = path.join(home.home, '.pi/agent/sessions/--home-dev-fuzz--');
      return { file: rng() < 0.75 ? path.join(project, `2026-01-02T03-04-05-000Z_${FUZZ_UUID}.jsonl`) : path.join(project, 'subagent-artifacts', 'f0f0_worker.jsonl') };
    },
  },
  {
    agent: 'kimi',
    seeds: seedsOf('kimi', (file) => path.basename(file) === 'wire.jsonl'),
    source: kimi,
    spec: kimiSpec,
    locate: (home, _seed, rng) => {
      const session = path.join(home.home, '.kimi-code/sessions/wd_fuzz_0f0f0f/ses_FUZZ0001');
      return { file: path.join(session, 'agents', rng() < 0.75 ? 'main' : 'sub_f0f0', 'wire.jsonl') };
    },
  },
  {
    agent: 'grok',
    seeds: grokSeeds(),
    source: createGrokSource(),
    locate: (home, seed) => {
      const dir = path.join(grokSessionsDir(home.env), '%2Fhome%2Fdev%2Ffuzz', path.basename(path.dirname(seed.name)));
      return { file: path.join(dir, 'chat_history.jsonl'), dir };
    },
  },
  {
    agent: 'amp',
    seeds: seedsOf('amp', (file) => file.endsWith('.json') && path.basename(path.dirname(file)) === 'threads'),
    source: createAmpSource({ exportSync: false }),
    locate: (home, seed) => ({ file: path.join(ampThreadsDir(home.env), path.basename(seed.name)) }),
  },
];

export const fuzzAgent = (agent: FileFixtureAgent): FuzzAgent => {
  const found = FUZZ_AGENTS.find((a) => a.agent === agent);
  if (!found) throw new Error(`no fuzz setup for ${agent}`);
  return found;
};

export const pickSeed = (rng: Rng, agent: FuzzAgent): Seed => pick(rng, agent.seeds);


/** A seed damaged by `mutate`: mostly its transcript, sometimes (grok) a file beside it. */
export const damage = (rng: Rng, seed: Seed, mutateBytes: (rng: Rng, bytes: Buffer) => { bytes: Buffer; steps: readonly string[] }): { seed: Seed; bytes: Buffer; steps: string[] } => {
  const companions = Object.keys(seed.companions ?? {});
  if (companions.length > 0 && rng() < 0.3) {
    const name = pick(rng, companions);
    const hit = mutateBytes(rng, (seed.companions as Record<string, Buffer>)[name] as Buffer);
    return { seed: { ...seed, companions: { ...seed.companions, [name]: hit.bytes } }, bytes: seed.bytes, steps: [`${name}:`, ...hit.steps] };
  }
  const hit = mutateBytes(rng, seed.bytes);
  return { seed, bytes: hit.bytes, steps: [...hit.steps] };
};
