import { appendFile, copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionState } from '../../../src/core/session.js';
import { rawValuesIn } from '../../../src/sources/internal/copies.js';
import { jsonKey } from '../../../src/sources/internal/skim.js';
import { pi } from '../../../src/sources/pi/index.js';
import { createPiParser } from '../../../src/sources/pi/parse.js';
import { diagnosticsOf, FIXTURES, foldById, makeCtx, parseFile, passWithCache } from '../../helpers/source-harness.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';

const FORKED = path.join(FIXTURES, 'pi/forked');
const PARENT = '2026-09-01T10-00-00-000Z_9c1d2e3f-4a5b-4c6d-8e7f-0a1b2c3d4e5f';
const FORK = '2026-09-01T11-00-00-000Z_5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9';

/** The parent's own numbers: three answers, two prompts. */
const PARENT_TOKENS = { input: 1200 + 30 + 50, output: 80 + 40 + 60, cacheCreation: 900, cacheRead: 2100 + 2200 };
const PARENT_COST = 0.008175 + 0.00132 + 0.00171;
/** What the fork adds of its own: one prompt, one answer. */
const FORK_OWN_TOKENS = { input: 60, output: 70, cacheCreation: 100, cacheRead: 2300 };
const FORK_OWN_COST = 0.002295;
/** The fork read as if nothing were copied: its own answer plus the two copied ones. */
const FORK_ALL_TOKENS = { input: 1200 + 30 + 60, output: 80 + 40 + 70, cacheCreation: 900 + 100, cacheRead: 2100 + 2300 };
const FORK_ALL_COST = 0.008175 + 0.00132 + 0.002295;

const parseSession = async (file: string, sessionId: string, resumed = false): Promise<SessionState | undefined> => {
  const events = await parseFile(createPiParser(file, { kind: 'main', sessionId }, resumed), file);
  expect(diagnosticsOf(events)).toEqual([]);
  return foldById(events).get(sessionId);
};

/** Writes the fork fixture to `to` with its header's `parentSession` set to `parent` (removed when undefined). */
const writeFork = async (to: string, parent: string | undefined): Promise<void> => {
  const [header, ...rest] = (await readFile(path.join(FORKED, `${FORK}.jsonl`), 'utf8')).split('\n');
  const record = JSON.parse(header!) as Record<string, unknown>;
  if (parent === undefined) delete record.parentSession;
  else record.parentSession = parent;
  await mkdir(path.dirname(to), { recursive: true });
  await writeFile(to, [JSON.stringify(record), ...rest].join('\n'));
};

describe('pi forks: entries copied from the parent session count there, not in the fork', () => {
  let home: TempHome;
  let dir: string;
  beforeEach(async () => {
    home = await makeTempHome('agentwatch-pi-fork-');
    dir = path.join(home.root, 'sessions', '--home-dev-shop--');
    await mkdir(dir, { recursive: true });
    await copyFile(path.join(FORKED, `${PARENT}.jsonl`), path.join(dir, `${PARENT}.jsonl`));
  });
  afterEach(() => home.cleanup());

  it('the fork counts only its own usage and messages, keeps the copied history, and the parent is unchanged', async () => {
    const forkFile = path.join(dir, `${FORK}.jsonl`);
    await copyFile(path.join(FORKED, `${FORK}.jsonl`), forkFile); // parentSession: the bare file name, taken from the fork's folder
    const fork = await parseSession(forkFile, FORK);
    expect(fork?.tokens).toEqual(FORK_OWN_TOKENS);
    expect(fork?.recordedCostUsd).toBeCloseTo(FORK_OWN_COST, 9);
    expect(fork).toMatchObject({
      userMessages: 1,
      assistantMessages: 1,
      // History of the copies is the fork's: model, the copied edit and its result, created when forked.
      cwd: '/home/dev/shop',
      model: 'claude-sonnet-4-6',
      lastFileWrite: '/home/dev/shop/src/checkout.ts',
      pendingTools: [],
      lastTurn: 'assistant',
      createdAt: Date.parse('2026-09-01T11:00:00.000Z'),
    });

    const parent = await parseSession(path.join(dir, `${PARENT}.jsonl`), PARENT);
    expect(parent?.tokens).toEqual(PARENT_TOKENS);
    expect(parent?.recordedCostUsd).toBeCloseTo(PARENT_COST, 9);
    expect(parent).toMatchObject({ userMessages: 2, assistantMessages: 3 });
  });

  it('takes an absolute parentSession (as pi writes it), also for a fork into another folder', async () => {
    const forkFile = path.join(home.root, 'sessions', '--home-dev-shop-v2--', `${FORK}.jsonl`);
    await writeFork(forkFile, path.join(dir, `${PARENT}.jsonl`));
    const fork = await parseSession(forkFile, FORK);
    expect(fork?.tokens).toEqual(FORK_OWN_TOKENS);
    expect(fork?.recordedCostUsd).toBeCloseTo(FORK_OWN_COST, 9);
    expect(fork).toMatchObject({ userMessages: 1, assistantMessages: 1 });
  });

  it('a fork whose parent file is gone counts everything (its copies are the only record left)', async () => {
    const forkFile = path.join(dir, `${FORK}.jsonl`);
    await writeFork(forkFile, path.join(dir, `${PARENT}.jsonl`));
    await rm(path.join(dir, `${PARENT}.jsonl`));
    const fork = await parseSession(forkFile, FORK);
    expect(fork?.tokens).toEqual(FORK_ALL_TOKENS);
    expect(fork?.recordedCostUsd).toBeCloseTo(FORK_ALL_COST, 9);
    expect(fork).toMatchObject({ userMessages: 2, assistantMessages: 3 });
  });

  it('a header without parentSession is read as before, even with the same entries beside it', async () => {
    const forkFile = path.join(dir, `${FORK}.jsonl`);
    await writeFork(forkFile, undefined);
    const fork = await parseSession(forkFile, FORK);
    expect(fork?.tokens).toEqual(FORK_ALL_TOKENS);
    expect(fork?.recordedCostUsd).toBeCloseTo(FORK_ALL_COST, 9);
    expect(fork).toMatchObject({ userMessages: 2, assistantMessages: 3 });
  });

  it('a parentSession naming the fork itself trims nothing', async () => {
    const forkFile = path.join(dir, `${FORK}.jsonl`);
    await writeFork(forkFile, forkFile);
    expect((await parseSession(forkFile, FORK))?.tokens).toEqual(FORK_ALL_TOKENS);
  });
});

describe('pi forks through the source', () => {
  let home: TempHome;
  beforeEach(async () => {
    home = await makeTempHome('agentwatch-pi-fork-src-');
  });
  afterEach(() => home.cleanup());

  it('a warm start resumes the fork past its header and ends with the cold-start numbers', async () => {
    const dir = path.join(home.home, '.pi', 'agent', 'sessions', '--home-dev-shop--');
    await mkdir(dir, { recursive: true });
    await copyFile(path.join(FORKED, `${PARENT}.jsonl`), path.join(dir, `${PARENT}.jsonl`));
    const forkFile = path.join(dir, `${FORK}.jsonl`);
    await writeFork(forkFile, path.join(dir, `${PARENT}.jsonl`));
    const ctx = makeCtx(home.env);

    const cold = foldById(await passWithCache(pi, ctx));
    expect(cold.get(FORK)?.tokens).toEqual(FORK_OWN_TOKENS);
    expect(cold.get(PARENT)?.tokens).toEqual(PARENT_TOKENS);

    // The fork goes on: one more prompt and answer of its own.
    const more = [
      { type: 'message', id: 'b2f0e104', parentId: 'b2f0e103', timestamp: '2026-09-01T11:02:00.000Z', message: { role: 'user', content: 'Wire it into checkout' } },
      {
        type: 'message',
        id: 'b2f0e105',
        parentId: 'b2f0e104',
        timestamp: '2026-09-01T11:02:05.000Z',
        message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }], model: 'claude-sonnet-4-6', usage: { input: 5, output: 6, cacheRead: 2400, cacheWrite: 0, cost: { total: 0.001 } } },
      },
    ];
    await appendFile(forkFile, more.map((r) => `${JSON.stringify(r)}\n`).join(''));

    const warmEvents = await passWithCache(pi, ctx);
    expect(warmEvents.some((e) => e.type === 'restore' && e.sessionId === FORK)).toBe(true);
    const warm = foldById(warmEvents).get(FORK);
    const full = foldById(await passWithCache(pi, makeCtx({ ...home.env, XDG_CACHE_HOME: path.join(home.root, 'other-cache') }))).get(FORK);
    const ownTokens = { input: 60 + 5, output: 70 + 6, cacheCreation: 100, cacheRead: 2300 + 2400 };
    expect(full?.tokens).toEqual(ownTokens);
    expect(warm?.tokens).toEqual(ownTokens);
    expect(warm?.recordedCostUsd).toBeCloseTo(FORK_OWN_COST + 0.001, 9);
    expect(warm).toMatchObject({ userMessages: 2, assistantMessages: 2 });
  }, 30_000);
});

describe('rawValuesIn (a pi parent\'s ids)', () => {
  let home: TempHome;
  beforeEach(async () => {
    home = await makeTempHome('agentwatch-pi-ids-');
  });
  afterEach(() => home.cleanup());

  it('finds every id of a file longer than a read chunk, wherever a chunk edge cuts the key or the id', async () => {
    const CHUNK = 1024 * 1024;
    const line = (id: string): string => `{"type":"message","id":"${id}","parentId":null}\n`;
    const [prefix, suffix] = ['{"type":"custom","data":"', '"}\n'];
    for (let cut = 0; cut <= 20; cut += 1) {
      // The second entry's `"id":"` key starts 18 bytes into its line (after `{"type":"message",`);
      // key, id and closing quote are 15 bytes: the chunk edge sweeps from before them to after them.
      const keyAt = CHUNK - 17 + cut;
      const pad = prefix + 'x'.repeat(keyAt - 18 - line('aaaa0001').length - prefix.length - suffix.length) + suffix;
      const file = path.join(home.root, `ids-${cut}.jsonl`);
      await writeFile(file, line('aaaa0001') + pad + line('bbbb0002') + line('cccc0003'));
      expect(rawValuesIn(file, jsonKey('id')), `cut ${cut}`).toEqual(new Set(['aaaa0001', 'bbbb0002', 'cccc0003']));
    }
    expect(rawValuesIn(path.join(home.root, 'missing.jsonl'), jsonKey('id'))).toBeUndefined();
  });
});
