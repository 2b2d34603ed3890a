import { describe, expect, it } from 'vitest';
import { isClaudeRecord } from '../../../src/sources/claude/guard.js';
import { claudeRecordSchema } from '../../../src/sources/claude/schema.js';

const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** Values of every JSON kind (and a few JSON cannot hold), right and wrong for any field. */
const POOL: readonly unknown[] = [undefined, null, '', 'text', 0, -0, 3, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, true, false, [], [{}], [{ type: 'text' }], {}, { type: 'x' }];

const block = (): Record<string, unknown> => ({ type: 'tool_use', id: 'toolu_1', name: 'Write', input: { file_path: '/a' }, text: 'hi', tool_use_id: 'toolu_0', is_error: false, content: [{ x: 1 }] });
const valid = (): Record<string, unknown> => ({
  type: 'assistant',
  subtype: 'x',
  timestamp: '2026-11-20T10:00:00.000Z',
  sessionId: 's',
  cwd: '/w',
  version: '2.1.7',
  gitBranch: 'main',
  isSidechain: false,
  isMeta: false,
  isCompactSummary: false,
  costUSD: 0.5,
  customTitle: 't',
  aiTitle: 'a',
  summary: 's',
  leafUuid: 'l',
  uuid: 'u',
  extra: { kept: true },
  message: { role: 'assistant', id: 'msg_1', model: 'claude-x', content: [block(), { type: 'text', text: 'done' }], usage: { input_tokens: 1, output_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 4 } },
});

/** Every place a value sits in `valid()`, as a setter on a fresh copy. */
const PATHS: readonly (readonly (string | number)[])[] = [
  [],
  ...Object.keys(valid()).map((k) => [k]),
  ...['role', 'id', 'model', 'content', 'usage'].map((k) => ['message', k]),
  ...['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'].map((k) => ['message', 'usage', k]),
  ['message', 'content', 0],
  ...Object.keys(block()).map((k) => ['message', 'content', 0, k]),
  ['message', 'content', 0, 'input', 'file_path'],
];

const withValue = (path: readonly (string | number)[], value: unknown): unknown => {
  if (path.length === 0) return value;
  const root = valid();
  let at: Record<string | number, unknown> = root;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (value === undefined && !Array.isArray(at)) delete at[last];
  else at[last] = value;
  return root;
};

describe('isClaudeRecord (the zod-free fast path of claudeRecordSchema)', () => {
  it('accepts a full record, keys the schema does not know included', () => {
    expect(isClaudeRecord(valid())).toBe(true);
    expect(claudeRecordSchema.safeParse(valid()).success).toBe(true);
  });

  it('accepts exactly what the schema accepts, for every field set to every kind of value', () => {
    for (const path of PATHS) {
      for (const value of POOL) {
        const record = withValue(path, value);
        expect({ path, value, accepted: isClaudeRecord(record) }).toEqual({ path, value, accepted: claudeRecordSchema.safeParse(record).success });
      }
    }
  });

  it('agrees with the schema on random records with several fields wrong at once', () => {
    const rand = mulberry32(7);
    let refused = 0;
    for (let i = 0; i < 3_000; i += 1) {
      let record = valid();
      for (let n = 1 + Math.floor(rand() * 3); n > 0; n -= 1) {
        const path = PATHS[1 + Math.floor(rand() * (PATHS.length - 1))] as (string | number)[];
        const value = POOL[Math.floor(rand() * POOL.length)];
        // Apply on the current record: rebuild the path inside it.
        let at = record as Record<string | number, unknown>;
        let ok = true;
        for (const key of path.slice(0, -1)) {
          const next = at[key];
          if (typeof next !== 'object' || next === null) {
            ok = false;
            break;
          }
          at = next as Record<string | number, unknown>;
        }
        if (!ok) continue;
        const last = path.at(-1) as string | number;
        if (value === undefined && !Array.isArray(at)) delete at[last];
        else at[last] = value;
      }
      const accepted = isClaudeRecord(record);
      if (!accepted) refused += 1;
      expect(accepted).toBe(claudeRecordSchema.safeParse(record).success);
      record = valid();
    }
    // The random mutations reach both answers.
    expect(refused).toBeGreaterThan(300);
    expect(refused).toBeLessThan(2_900);
  });
});
