import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isOwnTurn, rawUsageOf, tokensOf, uuidV7Time } from '../../../src/sources/codex/fork.js';
import { createCodexParser } from '../../../src/sources/codex/parse.js';
import { foldById, parseFile } from '../../helpers/source-harness.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';

// A fork as Codex writes it since about 0.14x: its own session_meta, a copy of the parent's
// rollout stamped at the fork, then its own turn (fixtures/codex/fork/README.md).
const FORK = '019f5e55-5555-7aaa-8bbb-00000000f0b5';
const FORK_FILE = path.resolve('fixtures/codex/fork', `rollout-2026-11-24T12-00-00-${FORK}.jsonl`);
const PARENT_FILE = path.resolve('fixtures/codex/segments', 'rollout-2026-11-20T10-00-00-019f3a10-1111-7aaa-8bbb-00000000c0de.jsonl');

const fold = async (file: string, sessionId: string) => foldById(await parseFile(createCodexParser(file, sessionId, false), file)).get(sessionId);

let home: TempHome;
beforeEach(async () => {
  home = await makeTempHome('agentwatch-codex-fork-copy-');
});
afterEach(() => home.cleanup());

describe('a Codex fork that starts with a copy of its parent\'s rollout', () => {
  it('counts only its own turn: the copied turns and totals are the parent\'s', async () => {
    const fork = await fold(FORK_FILE, FORK);
    // Its own turn: 26,000 in (19,000 cached), 1,900 out, less the parent's 20,000 / 14,000 / 1,500.
    expect(fork?.tokens).toEqual({ input: 1000, output: 400, cacheCreation: 0, cacheRead: 5000 });
    expect(fork).toMatchObject({ userMessages: 1, assistantMessages: 1, gitBranch: 'try-sqlite', lastTurn: 'assistant' });
    expect(fork?.recentMessages.map((m) => m.text)).toEqual(['try sqlite for the cart', 'Moved the cart store to sqlite.']);
    // The parent, read alone, is as it was.
    const parent = await fold(PARENT_FILE, '019f3a10-1111-7aaa-8bbb-00000000c0de');
    expect(parent?.tokens).toEqual({ input: 6000, output: 1500, cacheCreation: 0, cacheRead: 14000 });
  });

  it('turn ids that tell no time: the copy is the burst written with the fork', async () => {
    let n = 0;
    const text = (await readFile(FORK_FILE, 'utf8')).replace(/"turn_id":"[^"]+"/g, () => `"turn_id":"t-${(n += 1)}"`);
    const file = path.join(home.root, path.basename(FORK_FILE));
    await writeFile(file, text);
    const fork = await fold(file, FORK);
    expect(fork?.tokens).toEqual({ input: 1000, output: 400, cacheCreation: 0, cacheRead: 5000 });
    expect(fork).toMatchObject({ userMessages: 1, assistantMessages: 1 });
  });

  it('a fork made before any turn of its own has spent nothing', async () => {
    const lines = (await readFile(FORK_FILE, 'utf8')).split('\n').filter(Boolean);
    const file = path.join(home.root, path.basename(FORK_FILE));
    await writeFile(file, `${lines.slice(0, 12).join('\n')}\n`);
    const fork = await fold(file, FORK);
    expect(fork?.tokens).toEqual({ input: 0, output: 0, cacheCreation: 0, cacheRead: 0 });
    expect(fork).toMatchObject({ userMessages: 0, assistantMessages: 0 });
  });

  it('tells its own turns by their UUIDv7 ids, or by the time after the fork', () => {
    const forkedAt = Date.parse('2026-11-24T12:00:00.000Z');
    expect(uuidV7Time('019f3a10-1111-7aaa-8bbb-00000000c0de')).toBe(0x019f3a101111);
    expect(uuidV7Time('t-1')).toBeUndefined();
    // A v4 id tells no time.
    expect(uuidV7Time('5b9d3e1c-7a24-4c6f-8e0d-1f2a3b4c5d62')).toBeUndefined();
    const made = (at: number): string => `${at.toString(16).padStart(12, '0').slice(0, 8)}-${at.toString(16).padStart(12, '0').slice(8)}-7abc-8def-000000000001`;
    expect(isOwnTurn(made(forkedAt + 1), forkedAt, forkedAt)).toBe(true);
    expect(isOwnTurn(made(forkedAt - 60_000), forkedAt + 60_000, forkedAt)).toBe(false);
    expect(isOwnTurn('t-9', forkedAt + 500, forkedAt)).toBe(false);
    expect(isOwnTurn('t-9', forkedAt + 30_000, forkedAt)).toBe(true);
  });
});

describe('Codex 0.145+ cache writes (`cache_write_input_tokens`, part of input_tokens)', () => {
  it('are counted as cache creation, out of input', async () => {
    expect(tokensOf(rawUsageOf({ input_tokens: 10_000, cached_input_tokens: 6_000, cache_write_input_tokens: 3_000, output_tokens: 500 }))).toEqual({
      input: 1_000,
      output: 500,
      cacheCreation: 3_000,
      cacheRead: 6_000,
    });
    const id = '019f6f66-6666-7aaa-8bbb-00000000a1a1';
    const file = path.join(home.root, `rollout-2026-11-25T08-00-00-${id}.jsonl`);
    const usage = { input_tokens: 10_000, cached_input_tokens: 6_000, cache_write_input_tokens: 3_000, output_tokens: 500, reasoning_output_tokens: 0, total_tokens: 10_500 };
    const lines = [
      { timestamp: '2026-11-25T08:00:00.000Z', type: 'session_meta', payload: { id, timestamp: '2026-11-25T08:00:00.000Z', cwd: '/work/shop', originator: 'codex-tui', cli_version: '0.149.0', source: 'cli' } },
      { timestamp: '2026-11-25T08:00:01.000Z', type: 'turn_context', payload: { turn_id: 't-1', cwd: '/work/shop', model: 'gpt-5.5' } },
      { timestamp: '2026-11-25T08:00:30.000Z', type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: usage, last_token_usage: usage } } },
    ];
    await writeFile(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    expect((await fold(file, id))?.tokens).toEqual({ input: 1_000, output: 500, cacheCreation: 3_000, cacheRead: 6_000 });
  });
});
