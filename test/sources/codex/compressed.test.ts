import { copyFile, mkdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { codex } from '../../../src/sources/codex/index.js';
import { codexFamilyOf, codexIdFromFile } from '../../../src/sources/codex/paths.js';
import { createCodexParser } from '../../../src/sources/codex/parse.js';
import { CompressedReadError, readCompressedLines } from '../../../src/sources/internal/compressed.js';
import { createFileTracker } from '../../../src/sources/internal/file-tracker.js';
import type { LineItem } from '../../../src/sources/internal/lines.js';
import { foldById, makeCtx, passWithCache, useFixtureHome, waitFor } from '../../helpers/source-harness.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';
import { mulberry32 } from '../../fuzz/prng.js';
import { COMPRESSED_ROLLOUTS as COMPRESSED, copyRollout, PLAIN_ROLLOUTS as PLAIN, shown } from './rollout-files.js';

// Codex 0.137+ compresses a rollout idle for a week to `<name>.jsonl.zst` and deletes the plain
// file; resuming the thread writes the plain file back. fixtures/codex/compressed holds the first
// two files of fixtures/codex/segments compressed, and a thread whose tool output is one 530 KiB line.
const THREAD = '019f3a10-1111-7aaa-8bbb-00000000c0de';
const FIRST = `rollout-2026-11-20T10-00-00-${THREAD}.jsonl`;
const SECOND = `rollout-2026-11-21T09-00-00-${THREAD}_019f3b22-2222-7ccc-8ddd-00000000d1ff.jsonl`;
const BIG_THREAD = '019f5e55-5555-7aaa-8bbb-00000000b16b';
const BIG = `rollout-2026-11-12T08-00-00-${BIG_THREAD}.jsonl`;
const DAY_OF: Record<string, string> = { [FIRST]: '2026/11/20', [SECOND]: '2026/11/21', [BIG]: '2026/11/12' };

const placeOf = (home: TempHome, name: string): string => path.join(home.home, '.codex', 'sessions', DAY_OF[name] ?? '', name);
/** Installs `name` (a plain rollout) as it is, or compressed (`.zst`). */
const install = (home: TempHome, name: string, form: 'plain' | 'compressed'): Promise<string> => copyRollout(placeOf(home, name), name, form);
const ofThread = (events: readonly SessionEvent[], id = THREAD): SessionEvent[] => events.filter((e) => 'sessionId' in e && e.sessionId === id && e.type !== 'diagnostic');

describe('codex rollouts compressed with zstd (.jsonl.zst)', () => {
  const fixture = useFixtureHome('agentwatch-codex-zst-');

  it('names a compressed rollout as its plain twin: same thread, same family', () => {
    expect(codexIdFromFile(`/s/${FIRST}.zst`)).toBe(THREAD);
    expect(codexIdFromFile(`/s/${SECOND}.zst`)).toBe(THREAD);
    expect(codexFamilyOf(`/s/${FIRST}.zst`)?.key).toBe(THREAD);
    expect(codexIdFromFile('/s/notes.zst')).toBeUndefined();
    expect(codexIdFromFile('/s/other.jsonl.zst')).toBe('other');
  });

  it('reads a compressed thread as its plain files read', async () => {
    await install(fixture.home, FIRST, 'plain');
    await install(fixture.home, SECOND, 'plain');
    const plain = (await fixture.once(codex)).sessions().get(THREAD);
    await rm(path.join(fixture.home.home, '.codex'), { recursive: true });

    const first = await install(fixture.home, FIRST, 'compressed');
    const second = await install(fixture.home, SECOND, 'compressed');
    const run = await fixture.once(codex);
    expect(run.diagnostics()).toEqual([]);
    const thread = run.sessions().get(THREAD);
    expect(thread?.userMessages).toBe(3);
    expect(thread?.tokens).toEqual({ input: 8000, output: 2100, cacheCreation: 0, cacheRead: 19000 });
    expect(shown(thread)).toEqual(shown(plain));
    expect(thread?.path).toBe(second);
    expect(thread?.checkpoint).toMatchObject({ path: second, offset: (await stat(second)).size });
    expect(thread?.checkpoint?.before?.map((s) => s.path)).toEqual([first]);
  });

  it('a line longer than a block of the decoder is read whole, as the plain file holds it', async () => {
    await install(fixture.home, BIG, 'compressed');
    const run = await fixture.once(codex);
    expect(run.diagnostics()).toEqual([]);
    const thread = run.sessions().get(BIG_THREAD);
    expect(thread?.userMessages).toBe(1);
    expect(thread?.assistantMessages).toBe(1);
    expect(thread?.tokens).toEqual({ input: 130000, output: 700, cacheCreation: 0, cacheRead: 20000 });
    // The tool call's output line (530 KiB) closed the call: the session waits for the user.
    expect(thread?.pendingTools).toEqual([]);
  });

  it('counts a thread once while both its plain and its compressed file exist (the plain one is read)', async () => {
    const plainFile = await install(fixture.home, FIRST, 'plain');
    await install(fixture.home, FIRST, 'compressed');
    const run = await fixture.once(codex);
    const thread = run.sessions().get(THREAD);
    expect(thread?.userMessages).toBe(2);
    expect(thread?.tokens).toEqual({ input: 6000, output: 1500, cacheCreation: 0, cacheRead: 14000 });
    expect(thread?.path).toBe(plainFile);
    expect(run.events.filter((e) => e.type === 'turn' && e.sessionId === THREAD)).toHaveLength(4);
  });

  it('a warm start restores a compressed rollout from the cache without reading it', async () => {
    const file = await install(fixture.home, FIRST, 'compressed');
    // A whole second, which every file system stores exactly.
    const mtime = new Date('2026-11-20T12:00:00.000Z');
    await utimes(file, mtime, mtime);
    const ctx = makeCtx(fixture.home.env);
    const cold = foldById(await passWithCache(codex, ctx)).get(THREAD);
    expect(cold?.userMessages).toBe(2);
    // Same size and times, other bytes: only a read would notice.
    await writeFile(file, Buffer.alloc((await stat(file)).size, 0x20));
    await utimes(file, mtime, mtime);
    const warm = await passWithCache(codex, ctx);
    expect(ofThread(warm).map((e) => e.type)).toEqual(['restore']);
    expect(warm.filter((e) => e.type === 'diagnostic')).toEqual([]);
    expect(shown(foldById(warm).get(THREAD))).toEqual(shown(cold));
  });

  it('a compressed file that changed is read again from its first byte, never from the offset', async () => {
    const file = await install(fixture.home, FIRST, 'compressed');
    const ctx = makeCtx(fixture.home.env);
    await passWithCache(codex, ctx);
    // Replaced by the compressed first two segments' worth: a bigger file under the same name.
    await copyFile(path.join(COMPRESSED, `${SECOND}.zst`), file);
    await utimes(file, new Date(), new Date(Date.now() + 5_000));
    const warm = await passWithCache(codex, ctx);
    expect(ofThread(warm).some((e) => e.type === 'restore')).toBe(false);
    expect(warm.filter((e) => e.type === 'diagnostic')).toEqual([]);
    // The segment's lines alone: one turn, its totals.
    const thread = foldById(warm).get(THREAD);
    expect(thread?.userMessages).toBe(1);
    expect(thread?.tokens.cacheRead).toBe(19000);
  });

  it('a damaged compressed file is a diagnostic naming it; the other threads are read', async () => {
    const bytes = await readFile(path.join(COMPRESSED, `${FIRST}.zst`));
    const damaged = placeOf(fixture.home, FIRST) + '.zst';
    await mkdir(path.dirname(damaged), { recursive: true });
    await writeFile(damaged, bytes.subarray(0, bytes.length - 40));
    await install(fixture.home, BIG, 'compressed');
    const run = await fixture.once(codex);
    expect(run.sessions().get(BIG_THREAD)?.userMessages).toBe(1);
    const diagnostics = run.diagnostics();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'E_READ', path: damaged });
    expect(diagnostics[0]?.message).toContain(damaged);
    expect(diagnostics[0]?.message).toMatch(/zstd/);
  });

  it('the compressed twin of a plain file is not read until the plain file goes, then once, from its first byte', async () => {
    const plainFile = await install(fixture.home, FIRST, 'plain');
    const events: SessionEvent[] = [];
    const tracker = createFileTracker({ agent: 'codex', createParser: createCodexParser, emit: (e) => events.push(e), sideMeta: () => undefined, familyOf: codexFamilyOf });
    await tracker.sync(plainFile, THREAD);
    const turns = (): number => events.filter((e) => e.type === 'turn').length;
    expect(turns()).toBe(4);

    // Codex writes the compressed twin: nothing to read while the plain file is there.
    const compressed = await install(fixture.home, FIRST, 'compressed');
    events.length = 0;
    await tracker.sync(compressed, THREAD);
    expect(events).toEqual([]);
    expect(tracker.isTrackedFile(compressed)).toBe(false);

    // The plain file goes: the thread is folded again from the compressed file, never removed.
    await rm(plainFile);
    await tracker.sync(plainFile, THREAD);
    expect(events.map((e) => e.type).filter((type) => type === 'reset' || type === 'removed')).toEqual(['reset']);
    expect(turns()).toBe(4);
    expect(tracker.trackedFiles()).toEqual([compressed]);
    expect(foldById(events).get(THREAD)?.userMessages).toBe(2);
  });

  it('while watching: Codex compressing a thread keeps it as it is; resuming it (the plain file back, appended) goes on from there', async () => {
    const plainFile = await install(fixture.home, FIRST, 'plain');
    const run = await fixture.ready(codex);
    expect(run.sessions().get(THREAD)?.userMessages).toBe(2);
    const shownBefore = shown(run.sessions().get(THREAD));

    // Compression: the .zst is written beside the plain file, then the plain file goes.
    const compressed = await install(fixture.home, FIRST, 'compressed');
    await rm(plainFile);
    await waitFor('the thread read from its compressed file', () => run.sessions().get(THREAD)?.path === compressed);
    expect(shown(run.sessions().get(THREAD))).toEqual(shownBefore);
    expect(run.events.filter((e) => e.type === 'removed')).toEqual([]);

    // Resume: the plain file is written back with a new turn, then the .zst goes.
    const more = { timestamp: '2026-11-27T09:00:00.000Z', ordinal: 10, type: 'event_msg', payload: { type: 'user_message', message: 'and a wishlist' } };
    await writeFile(plainFile, `${await readFile(path.join(PLAIN, FIRST), 'utf8')}${JSON.stringify(more)}\n`);
    await rm(compressed);
    await waitFor('the resumed thread', () => run.sessions().get(THREAD)?.userMessages === 3 && run.sessions().get(THREAD)?.path === plainFile);
    expect(run.sessions().get(THREAD)?.tokens).toEqual({ input: 6000, output: 1500, cacheCreation: 0, cacheRead: 14000 });
    expect(run.events.filter((e) => e.type === 'removed')).toEqual([]);
    expect(run.diagnostics()).toEqual([]);
  });
});

describe('readCompressedLines', () => {
  const collect = async (file: string, maxLineBytes?: number): Promise<{ items: LineItem[]; offsets: (number | undefined)[] }> => {
    const items: LineItem[] = [];
    const offsets: (number | undefined)[] = [];
    await readCompressedLines(
      file,
      (chunk, consumed) => {
        // Copied: a view into the decoder's output is valid only during the call.
        items.push(...chunk.map((item) => (item.kind === 'line' ? { ...item, bytes: Buffer.from(item.bytes) } : item)));
        offsets.push(consumed);
      },
      maxLineBytes === undefined ? {} : { maxLineBytes },
    );
    return { items, offsets };
  };

  it('reads a last line without its newline, and takes the file size as the only offset', async () => {
    const file = path.join(COMPRESSED, 'lines-without-final-newline.zst');
    const { items, offsets } = await collect(file);
    expect(items.map((item) => (item.kind === 'line' ? item.bytes.toString() : item.kind))).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
    expect(offsets.at(-1)).toBe((await stat(file)).size);
    expect(offsets.slice(0, -1).every((offset) => offset === undefined)).toBe(true);
  });

  it('splits lines across the decoder\'s chunks, and caps a line over the limit as every reader does', async () => {
    const file = path.join(COMPRESSED, `${BIG}.zst`);
    const whole = await collect(file);
    expect(whole.offsets.length).toBeGreaterThan(2);
    expect(whole.items.map((item) => item.kind)).toEqual(['line', 'line', 'line', 'line', 'line', 'line', 'line', 'line']);
    const output = whole.items[5];
    expect(output?.kind === 'line' && output.bytes.length).toBeGreaterThan(500_000);
    expect(output?.kind === 'line' && JSON.parse(output.bytes.toString()).payload.call_id).toBe('call_big_1');
    const capped = await collect(file, 100_000);
    expect(capped.items.map((item) => item.kind)).toEqual(['line', 'line', 'line', 'line', 'line', 'oversized', 'line', 'line']);
  });

  describe('on a damaged file', () => {
    let home: TempHome;
    beforeAll(async () => {
      home = await makeTempHome('agentwatch-zst-damaged-');
    });
    afterAll(() => home.cleanup());
    const tmp = async (bytes: Uint8Array): Promise<string> => {
      const file = path.join(home.root, 'damaged.jsonl.zst');
      await writeFile(file, bytes);
      return file;
    };
    const outcome = async (file: string): Promise<string> => {
      try {
        await collect(file);
        return 'read';
      } catch (error) {
        expect(error).toBeInstanceOf(CompressedReadError);
        return (error as Error).message;
      }
    };

    it('says what is wrong: empty, truncated at every cut, not zstd at all', async () => {
      const bytes = await readFile(path.join(COMPRESSED, `${FIRST}.zst`));
      expect(await outcome(await tmp(Buffer.alloc(0)))).toBe('zstd: empty file');
      expect(await outcome(await tmp(Buffer.from('{"not":"compressed"}\n')))).toBe('zstd: invalid compressed data');
      for (let cut = 1; cut < bytes.length; cut += 3) {
        expect(await outcome(await tmp(bytes.subarray(0, cut))), `cut at ${cut}`).toMatch(/^zstd: /);
      }
      expect(await outcome(await tmp(bytes.subarray(0, bytes.length - 40)))).toBe('zstd: the file ends inside a frame (truncated)');
    });

    it('with bytes flipped, is read or refused with a zstd error, never anything else', async () => {
      const bytes = await readFile(path.join(COMPRESSED, `${BIG}.zst`));
      const rng = mulberry32(0x5eed_0057);
      for (let run = 0; run < 60; run += 1) {
        const damaged = Buffer.from(bytes);
        for (let flips = 1 + Math.floor(rng() * 4); flips > 0; flips -= 1) {
          const at = Math.floor(rng() * damaged.length);
          damaged[at] = (damaged[at] ?? 0) ^ (1 + Math.floor(rng() * 255));
        }
        const result = await outcome(await tmp(damaged));
        expect(result === 'read' || result.startsWith('zstd: '), `run ${run}: ${result}`).toBe(true);
      }
    });
  });
});
