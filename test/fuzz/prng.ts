/** Small seeded PRNG for randomised tests: deterministic per seed, so a failure replays. */
export type Rng = () => number;

/** mulberry32: 32-bit state, uniform floats in [0, 1). */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Integer in [min, max] inclusive. */
export function randInt(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

/** One element of a non-empty array. */
export function pick<T>(rng: Rng, items: readonly T[]): T {
  if (items.length === 0) throw new Error('pick from an empty array');
  return items[Math.floor(rng() * items.length)] as T;
}

/** Case count: the default, or AGENTWATCH_FUZZ_RUNS when set to a positive integer. */
export function fuzzRuns(defaultRuns: number): number {
  const raw = process.env.AGENTWATCH_FUZZ_RUNS;
  const n = raw === undefined ? NaN : Number.parseInt(raw, 10);
  return Number.isFinite(n) && n > 0 ? n : defaultRuns;
}

/** Base seed: AGENTWATCH_FUZZ_SEED when set (to replay a failure), else a fixed default. */
export function fuzzSeed(defaultSeed: number): number {
  const raw = process.env.AGENTWATCH_FUZZ_SEED;
  const n = raw === undefined ? NaN : Number.parseInt(raw, 10);
  return Number.isFinite(n) ? n >>> 0 : defaultSeed >>> 0;
}

/**
 * The seeds of a randomised test's cases: `runs` seeds from `base` (AGENTWATCH_FUZZ_RUNS and
 * AGENTWATCH_FUZZ_SEED change either), or only AGENTWATCH_FUZZ_CASE when set: the seed a failure
 * printed, to replay that one case.
 */
export function fuzzCases(defaultRuns: number, base: number): number[] {
  const replay = process.env.AGENTWATCH_FUZZ_CASE;
  if (replay !== undefined && replay !== '') return [Number.parseInt(replay, 10) >>> 0];
  const from = fuzzSeed(base);
  return Array.from({ length: fuzzRuns(defaultRuns) }, (_, i) => (from + i) >>> 0);
}
