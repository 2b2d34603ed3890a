import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { loadConfig } from '../../src/config/load.js';
import { configDir, configPath } from '../../src/config/paths.js';
import { CONFIG_KEYS } from '../../src/config/schema.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { makeConfigCase, PASSPHRASE, type ConfigCase } from './config-cases.js';
import { chance } from './input-helpers.js';
import { fuzzRuns, fuzzSeed, mulberry32, type Rng } from './prng.js';

/**
 * Property 3: a damaged config file (broken JSON, wrong types, unknown keys, BOM, comments,
 * duplicate keys, huge numbers, deep nesting) makes loadConfig either load it (a wrongly typed
 * value reads as its key's default) or throw a ConfigError whose one-line message names the file
 * and the key path or the line:column (the right one), never anything else; a failed load leaves the file byte-identical and writes
 * nothing beside it; a load that writes (back-fill) keeps every value the file held. A failure
 * prints its seed (AGENTWATCH_FUZZ_SEED=<seed> AGENTWATCH_FUZZ_RUNS=1 replays it).
 */

const RUNS = fuzzRuns(600);
const BASE_SEED = fuzzSeed(0xc0ff_1e00);

let temp: TempHome;
beforeAll(async () => {
  temp = await makeTempHome('agentwatch-fuzz-config-');
});
afterAll(async () => {
  await temp.cleanup();
});

type Outcome = 'loaded' | 'back-filled' | 'E_CONFIG_JSON' | 'E_CONFIG_INVALID' | 'failed';

const listDir = async (dir: string): Promise<string[]> => (await readdir(dir)).sort();

/** The offset of a `line:column` in `text`. */
const offsetOf = (text: string, line: number, column: number): number =>
  text.split('\n').slice(0, line - 1).reduce((sum, before) => sum + before.length + 1, 0) + column - 1;

/** What is wrong with a refusal, or undefined. */
const refusalProblem = (error: ConfigError, file: string, text: string, made: ConfigCase): string | undefined => {
  const { message } = error;
  if (!message.startsWith(file)) return `the message does not name the file: ${message}`;
  if (message.includes('\n')) return `the message is not one line: ${JSON.stringify(message)}`;
  if (message.includes(PASSPHRASE)) return 'the message shows the passphrase';
  if (error.code === 'E_CONFIG_JSON') {
    const at = /^[^:]+:(\d+):(\d+): not valid JSON \(.+\)$/.exec(message);
    if (!at) return `a JSON error without line:column: ${message}`;
    const [line, column] = [Number(at[1]), Number(at[2])];
    const lines = text.split('\n');
    if (line < 1 || line > lines.length || column < 1 || column > (lines[line - 1] as string).length + 1) return `line:column outside the file: ${message}`;
    const offset = offsetOf(text, line, column);
    const to = made.errorTo ?? made.errorFrom;
    if (made.errorFrom !== undefined && to !== undefined && (offset < made.errorFrom || offset > to)) return `the error is placed at offset ${offset}, not within ${made.errorFrom}..${to}: ${message}`;
    return undefined;
  }
  if (error.code !== 'E_CONFIG_INVALID') return `unexpected error code ${error.code}: ${message}`;
  const detail = /: (?:invalid configuration: (.+)|expected a JSON object at the top level)$/.exec(message);
  if (!detail) return `an invalid-config message that says nothing specific: ${message}`;
  if (made.keyPaths && detail[1] !== undefined && !made.keyPaths.some((key) => detail[1]?.includes(key))) return `the message names none of ${made.keyPaths.join(', ')}: ${message}`;
  return undefined;
};

/** What is wrong with a load that succeeded, or undefined. */
const loadedProblem = (text: string, after: string, write: boolean, made: ConfigCase, passphrase: string): string | undefined => {
  if (!write && after !== text) return 'a load with write: false changed the file';
  // An empty (or blank) file holds no keys.
  const unmarked = (json: string): Record<string, unknown> => JSON.parse(json.replace(/^\ufeff/, '').trim() || '{}') as Record<string, unknown>;
  // One that is not a string reads as none (the key's default), with a warning.
  const filePassphrase = unmarked(after).api_passphrase;
  if (passphrase !== (typeof filePassphrase === 'string' ? filePassphrase : '')) return 'the loaded passphrase is not the file\'s';
  // Nothing here is read-only: a file missing keys is back-filled unless that would change a number of the user's.
  const missing = CONFIG_KEYS.filter((key) => !(key in unmarked(text)));
  if (write && after === text && missing.length > 0 && made.keepLiteral === undefined) return `the back-fill of ${missing.join(', ')} was not written`;
  if (after === text) return undefined;
  if (made.keepLiteral !== undefined && !after.includes(made.keepLiteral)) return `a rewrite changed the number ${made.keepLiteral}`;
  // A back-fill: every value the file held is still there (objects may gain keys, an empty salt a value).
  const original = unmarked(text);
  const written = unmarked(after);
  for (const [key, value] of Object.entries(original)) {
    const now = written[key];
    // An empty salt, or one that is not a string, is replaced by a generated one (and said so).
    const kept = JSON.stringify(now) === JSON.stringify(value) || (key === 'api_salt' && (value === '' || typeof value !== 'string')) || isWidened(value, now);
    if (!kept) return `the back-fill changed ${key} from ${String(JSON.stringify(value)).slice(0, 100)} to ${String(JSON.stringify(now)).slice(0, 100)}`;
  }
  return undefined;
};

/** `agents`/`tui` back-filled: every key the file had is kept, only missing ones added. */
const isWidened = (before: unknown, after: unknown): boolean =>
  typeof before === 'object' && before !== null && !Array.isArray(before) && typeof after === 'object' && after !== null &&
  Object.entries(before).every(([key, value]) => JSON.stringify((after as Record<string, unknown>)[key]) === JSON.stringify(value));

const checkLoad = async (seed: number, rng: Rng): Promise<{ outcome: Outcome; problem?: string }> => {
  const made = makeConfigCase(rng);
  const env = { ...temp.env, XDG_CONFIG_HOME: path.join(temp.root, `case-${seed}`) };
  const file = configPath(env);
  await mkdir(configDir(env), { recursive: true, mode: 0o700 });
  await writeFile(file, made.text, { mode: 0o600 });
  // As read back: a lone surrogate is written as U+FFFD.
  const text = await readFile(file, 'utf8');
  const before = await listDir(configDir(env));
  const write = chance(rng, 0.7);
  const context = `${made.how}, write: ${String(write)}: ${JSON.stringify(text.slice(0, 400))}`;
  try {
    const loaded = await loadConfig(env, { write }).catch((error: unknown) => error as Error);
    if (!(loaded instanceof Error)) {
      const after = await readFile(file, 'utf8');
      const problem = loadedProblem(text, after, write, made, loaded.config.api_passphrase);
      return { outcome: after === text ? 'loaded' : 'back-filled', ...(problem ? { problem: `${problem}: ${context}` } : {}) };
    }
    if (!(loaded instanceof ConfigError)) return { outcome: 'failed', problem: `threw ${loaded.name}: ${loaded.message} (not a ConfigError): ${context}` };
    if ((await readFile(file, 'utf8')) !== text) return { outcome: 'failed', problem: `a failed load changed the file: ${context}` };
    if (JSON.stringify(await listDir(configDir(env))) !== JSON.stringify(before)) return { outcome: 'failed', problem: `a failed load wrote beside the file: ${context}` };
    const problem = refusalProblem(loaded, file, text, made);
    return { outcome: loaded.code === 'E_CONFIG_JSON' ? 'E_CONFIG_JSON' : 'E_CONFIG_INVALID', ...(problem ? { problem: `${problem}: ${context}` } : {}) };
  } finally {
    await rm(env.XDG_CONFIG_HOME, { recursive: true, force: true });
  }
};

describe('fuzz: a damaged config file is loaded or refused by name, never crashes, never rewritten by a failed load', () => {
  it(`${RUNS} mutated config files (base seed ${BASE_SEED})`, { timeout: 60_000 + RUNS * 20 }, async () => {
    const failures: string[] = [];
    const outcomes: Record<Outcome, number> = { loaded: 0, 'back-filled': 0, E_CONFIG_JSON: 0, E_CONFIG_INVALID: 0, failed: 0 };
    for (let i = 0; i < RUNS; i += 1) {
      const seed = (BASE_SEED + i) >>> 0;
      const { outcome, problem } = await checkLoad(seed, mulberry32(seed));
      outcomes[outcome] += 1;
      if (problem) failures.push(`seed ${seed}: ${problem}`);
    }
    expect(failures, `${failures.length} of ${RUNS} cases failed; replay one with AGENTWATCH_FUZZ_SEED=<seed> AGENTWATCH_FUZZ_RUNS=1\n${failures.slice(0, 10).join('\n')}`).toEqual([]);
    // The cases reach every answer (a generator that only ever broke the JSON would prove little).
    if (RUNS >= 200) for (const outcome of ['loaded', 'back-filled', 'E_CONFIG_JSON', 'E_CONFIG_INVALID'] as const) expect(outcomes[outcome], JSON.stringify(outcomes)).toBeGreaterThan(RUNS / 50);
  });
});
