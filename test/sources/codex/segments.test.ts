import { appendFile, copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionState } from '../../../src/core/session.js';
import { codex } from '../../../src/sources/codex/index.js';
import { isForkRollout } from '../../../src/sources/codex/fork.js';
import { codexFamilyOf, codexIdFromFile } from '../../../src/sources/codex/paths.js';
import { foldById, makeCtx, passWithCache, useFixtureHome, waitFor } from '../../helpers/source-harness.js';
import type { TempHome } from '../../helpers/temp-home.js';

// Codex 0.147+ goes on with a thread in a new segment file (a revert or an edit-and-resend), in
// the directory of the day it began: `rollout-<ts>-<thread>_<segment>.jsonl`, whose session_meta
// names the thread and whose token totals continue the thread's. fixtures/codex/segments holds a
// thread of two turns, a segment of one more turn a day later, and a third segment.
const THREAD = '019f3a10-1111-7aaa-8bbb-00000000c0de';
const FIXTURES = path.resolve('fixtures/codex/segments');
const FIRST = `rollout-2026-11-20T10-00-00-${THREAD}.jsonl`;
const SECOND = `rollout-2026-11-21T09-00-00-${THREAD}_019f3b22-2222-7ccc-8ddd-00000000d1ff.jsonl`;
const THIRD = `rollout-2026-11-22T08-00-00-${THREAD}_019f3c33-3333-7eee-8fff-00000000e2aa.jsonl`;
const DAY_OF = { [FIRST]: '2026/11/20', [SECOND]: '2026/11/21', [THIRD]: '2026/11/22' } as const;

const sessionsDir = (home: TempHome): string => path.join(home.home, '.codex', 'sessions');
const placeOf = (home: TempHome, name: keyof typeof DAY_OF): string => path.join(sessionsDir(home), DAY_OF[name], name);
const install = async (home: TempHome, name: keyof typeof DAY_OF): Promise<string> => {
  const to = placeOf(home, name);
  await mkdir(path.dirname(to), { recursive: true });
  await copyFile(path.join(FIXTURES, name), to);
  return to;
};


const ofThread = (events: readonly SessionEvent[]): SessionEvent[] => events.filter((e) => 'sessionId' in e && e.sessionId === THREAD && e.type !== 'diagnostic');
/** What the session shows, without the checkpoint (which says how it was read, not what it holds). */
const shown = (state: SessionState | undefined): Omit<SessionState, 'checkpoint'> | undefined => {
  if (!state) return undefined;
  const { checkpoint: _checkpoint, ...rest } = state;
  return rest;
};

describe('codex segment files: one thread read from several files, in order', () => {
  const fixture = useFixtureHome('agentwatch-codex-segments-');

  it('names the thread and orders its files by the time each began', () => {
    const first = `/s/2026/11/20/${FIRST}`;
    const second = `/s/2026/11/21/${SECOND}`;
    expect(codexIdFromFile(first)).toBe(THREAD);
    expect(codexIdFromFile(second)).toBe(THREAD);
    expect(codexFamilyOf(first)?.key).toBe(THREAD);
    expect(codexFamilyOf(second)?.key).toBe(THREAD);
    expect((codexFamilyOf(first)?.order ?? '') < (codexFamilyOf(second)?.order ?? '')).toBe(true);
    // A segment begun in the same second as its thread still sorts after it.
    const sameSecond = `rollout-2026-11-20T10-00-00-${THREAD}_019f3b22-2222-7ccc-8ddd-00000000d1ff.jsonl`;
    expect((codexFamilyOf(first)?.order ?? '') < (codexFamilyOf(sameSecond)?.order ?? '')).toBe(true);
    expect(codexFamilyOf('/s/notes.jsonl')).toBeUndefined();
  });

  it('lists the thread once, with the turns of every segment and the totals of the newest', async () => {
    await install(fixture.home, FIRST);
    await install(fixture.home, SECOND);
    const run = await fixture.once(codex);
    const sessions = run.sessions();
    expect([...sessions.keys()].filter((id) => id.startsWith('019f3'))).toEqual([THREAD]);
    const thread = sessions.get(THREAD);
    expect(thread?.userMessages).toBe(3);
    expect(thread?.assistantMessages).toBe(3);
    // The segment's cumulative totals continue the thread's: counted once, from the newest.
    expect(thread?.tokens).toEqual({ input: 8000, output: 2100, cacheCreation: 0, cacheRead: 19000 });
    // Begun with the first file, last written in the newest, which is where Codex goes on.
    expect(thread?.createdAt).toBe(Date.parse('2026-11-20T09:59:58.000Z'));
    expect(thread?.path).toBe(placeOf(fixture.home, SECOND));
    expect(thread?.version).toBe('0.157.0');
    expect(thread?.checkpoint?.path).toBe(placeOf(fixture.home, SECOND));
    expect(thread?.checkpoint?.before?.map((stamp) => stamp.path)).toEqual([placeOf(fixture.home, FIRST)]);
    // Every file read once, the first before the second.
    const turns = run.events.filter((e) => e.type === 'turn' && e.sessionId === THREAD).map((e) => (e.type === 'turn' ? e.text : ''));
    expect(turns).toEqual([
      'add a cart endpoint',
      'Added POST /cart with a test.',
      'now make it idempotent',
      'Done: a repeated POST returns the same cart.',
      'also add a checkout endpoint',
      'Added POST /checkout.',
    ]);
  });

  it('a warm start restores the thread from the newest file alone, start after start, and equals a cold read', async () => {
    await install(fixture.home, FIRST);
    await install(fixture.home, SECOND);
    const ctx = makeCtx(fixture.home.env);
    const cold = foldById(await passWithCache(codex, ctx)).get(THREAD);
    for (let start = 0; start < 3; start += 1) {
      const warm = await passWithCache(codex, ctx);
      // Nothing read: one restore, of the state the newest file's row holds.
      expect(ofThread(warm).map((e) => e.type)).toEqual(['restore']);
      expect(shown(foldById(warm).get(THREAD))).toEqual(shown(cold));
    }
  });

  it('a warm start counts the diagnostics of every file of the thread, as the cold read did', async () => {
    await appendFile(await install(fixture.home, FIRST), 'not json: a junk line in the first file\n');
    await appendFile(await install(fixture.home, SECOND), '{"type":"event_msg","payload":\n');
    const ctx = makeCtx(fixture.home.env);
    const junkOf = (events: readonly SessionEvent[]): number =>
      events.reduce((n, e) => n + (e.type === 'diagnostic' && e.code === 'E_JUNK_LINE' ? (e.count ?? 1) : 0), 0);
    expect(junkOf(await passWithCache(codex, ctx))).toBe(2);
    for (let start = 0; start < 3; start += 1) expect(junkOf(await passWithCache(codex, ctx))).toBe(2);
    // A new segment is read from its first byte; the earlier files' counts stay with the thread.
    await install(fixture.home, THIRD);
    expect(junkOf(await passWithCache(codex, ctx))).toBe(2);
    expect(junkOf(await passWithCache(codex, ctx))).toBe(2);
  });

  it('a warm start reads only what was appended to the newest file, and a new segment from its first byte', async () => {
    await install(fixture.home, FIRST);
    const second = await install(fixture.home, SECOND);
    const ctx = makeCtx(fixture.home.env);
    await passWithCache(codex, ctx);
    const more = { timestamp: '2026-11-21T09:05:00.000Z', ordinal: 16, type: 'event_msg', payload: { type: 'user_message', message: 'and a refund endpoint' } };
    await appendFile(second, `${JSON.stringify(more)}\n`);
    const grown = await passWithCache(codex, ctx);
    expect(ofThread(grown)[0]?.type).toBe('restore');
    expect(ofThread(grown).filter((e) => e.type === 'turn').map((e) => (e.type === 'turn' ? e.text : ''))).toEqual(['and a refund endpoint']);
    expect(foldById(grown).get(THREAD)?.userMessages).toBe(4);

    await install(fixture.home, THIRD);
    const extended = await passWithCache(codex, ctx);
    expect(ofThread(extended)[0]?.type).toBe('restore');
    expect(ofThread(extended).filter((e) => e.type === 'turn').map((e) => (e.type === 'turn' ? e.text : ''))).toEqual(['rename cart to basket', 'Renamed.']);
    const warm = foldById(extended).get(THREAD);
    const cold = foldById(await passWithCache(codex, makeCtx({ ...fixture.home.env, XDG_CACHE_HOME: path.join(fixture.home.root, 'other-cache') }))).get(THREAD);
    expect(shown(warm)).toEqual(shown(cold));
    expect(warm?.userMessages).toBe(5);
    expect(warm?.tokens).toEqual({ input: 9000, output: 2500, cacheCreation: 0, cacheRead: 24000 });
  });

  it('an earlier file changed while nobody watched: the thread is read again from the first byte of each file', async () => {
    const first = await install(fixture.home, FIRST);
    await install(fixture.home, SECOND);
    const ctx = makeCtx(fixture.home.env);
    await passWithCache(codex, ctx);
    await appendFile(first, `${JSON.stringify({ timestamp: '2026-11-20T10:02:00.000Z', ordinal: 10, type: 'event_msg', payload: { type: 'user_message', message: 'late line' } })}\n`);
    const warm = await passWithCache(codex, ctx);
    expect(ofThread(warm).some((e) => e.type === 'restore')).toBe(false);
    const thread = foldById(warm).get(THREAD);
    expect(thread?.userMessages).toBe(4);
    expect(thread?.tokens.cacheRead).toBe(19000);
  });

  it('while watching: a new segment continues the thread; a deleted earlier file folds it again; the last one gone removes it', async () => {
    const first = await install(fixture.home, FIRST);
    const run = await fixture.ready(codex);
    expect(run.sessions().get(THREAD)?.userMessages).toBe(2);

    const second = await install(fixture.home, SECOND);
    await waitFor('the segment', () => run.sessions().get(THREAD)?.userMessages === 3);
    expect(run.sessions().get(THREAD)?.tokens.cacheRead).toBe(19000);
    expect(run.events.filter((e) => e.type === 'reset' && e.sessionId === THREAD)).toEqual([]);

    await rm(first);
    await waitFor('the thread folded from the segment alone', () => run.sessions().get(THREAD)?.userMessages === 1);
    const left = run.sessions().get(THREAD);
    expect(left?.assistantMessages).toBe(1);
    expect(left?.checkpoint?.path).toBe(second);
    expect(left?.checkpoint?.before).toBeUndefined();

    await rm(second);
    await waitFor('the thread removed', () => !run.sessions().has(THREAD));
    expect(run.diagnostics()).toEqual([]);
  });

  it('reads the same thread whichever order the walk finds its files in', async () => {
    // Later segment in an earlier-sorting directory: the order comes from the file names.
    await mkdir(path.join(sessionsDir(fixture.home), 'a'), { recursive: true });
    await copyFile(path.join(FIXTURES, SECOND), path.join(sessionsDir(fixture.home), 'a', SECOND));
    await mkdir(path.join(sessionsDir(fixture.home), 'z'), { recursive: true });
    await copyFile(path.join(FIXTURES, FIRST), path.join(sessionsDir(fixture.home), 'z', FIRST));
    const run = await fixture.once(codex);
    const thread = run.sessions().get(THREAD);
    expect(thread?.userMessages).toBe(3);
    expect(thread?.tokens.cacheRead).toBe(19000);
    expect(thread?.path).toBe(path.join(sessionsDir(fixture.home), 'a', SECOND));
    expect((await readFile(path.join(FIXTURES, SECOND), 'utf8')).split('\n')[0]).toContain('"history_base"');
  });

  describe('a fork (codex fork): totals that go on from the parent\'s', () => {
    const FORK = '019f4d44-4444-7aaa-8bbb-00000000f0a4';
    const FORK_FILE = `rollout-2026-11-23T11-00-00-${FORK}.jsonl`;
    const installFork = async (): Promise<string> => {
      const to = path.join(sessionsDir(fixture.home), '2026/11/23', FORK_FILE);
      await mkdir(path.dirname(to), { recursive: true });
      await copyFile(path.resolve('fixtures/codex/fork', FORK_FILE), to);
      return to;
    };
    const secondTurn = (): string =>
      [
        { timestamp: '2026-11-23T11:05:00.000Z', ordinal: 6, type: 'event_msg', payload: { type: 'user_message', message: 'and benchmark it' } },
        {
          timestamp: '2026-11-23T11:05:40.000Z',
          ordinal: 7,
          type: 'event_msg',
          payload: {
            type: 'token_count',
            info: {
              total_token_usage: { input_tokens: 31000, cached_input_tokens: 22000, output_tokens: 2200 },
              last_token_usage: { input_tokens: 6000, cached_input_tokens: 4000, output_tokens: 400 },
            },
          },
        },
      ]
        .map((line) => `${JSON.stringify(line)}\n`)
        .join('');

    it('counts only what the fork spent: each total less the parent\'s total it started from', async () => {
      await install(fixture.home, FIRST);
      await installFork();
      const sessions = (await fixture.once(codex)).sessions();
      // The fork's first turn: 25,000 in (18,000 cached), 1,800 out, of which the parent had 20,000 / 14,000 / 1,500.
      expect(sessions.get(FORK)?.tokens).toEqual({ input: 1000, output: 300, cacheCreation: 0, cacheRead: 4000 });
      expect(sessions.get(FORK)?.gitBranch).toBe('try-redis');
      // The parent is as it was.
      expect(sessions.get(THREAD)?.tokens).toEqual({ input: 6000, output: 1500, cacheCreation: 0, cacheRead: 14000 });
    });

    it('a resumed parser tells a fork by its first line, cut as every line is (byte-order mark, CRLF)', async () => {
      const fork = await installFork();
      expect(isForkRollout(fork)).toBe(true);
      const text = await readFile(fork, 'utf8');
      const windows = path.join(path.dirname(fork), `rollout-2026-11-23T11-00-01-${FORK.replace('f0a4', 'f0a5')}.jsonl`);
      await writeFile(windows, `\uFEFF${text.replaceAll('\n', '\r\n')}`);
      expect(isForkRollout(windows)).toBe(true);
      // A thread that is not a fork.
      expect(isForkRollout(await install(fixture.home, FIRST))).toBe(false);
      expect(isForkRollout(path.join(fixture.home.root, 'absent.jsonl'))).toBe(false);
    });

    it('keeps counting so after a warm start resumes the fork mid-file', async () => {
      const fork = await installFork();
      const ctx = makeCtx(fixture.home.env);
      await passWithCache(codex, ctx);
      await appendFile(fork, secondTurn());
      const warm = await passWithCache(codex, ctx);
      expect(warm.find((e) => 'sessionId' in e && e.sessionId === FORK)?.type).toBe('restore');
      const tokens = foldById(warm).get(FORK)?.tokens;
      expect(tokens).toEqual({ input: 3000, output: 700, cacheCreation: 0, cacheRead: 8000 });
      const cold = foldById(await passWithCache(codex, makeCtx({ ...fixture.home.env, XDG_CACHE_HOME: path.join(fixture.home.root, 'other-cache') }))).get(FORK);
      expect(cold?.tokens).toEqual(tokens);
    });
  });
});
