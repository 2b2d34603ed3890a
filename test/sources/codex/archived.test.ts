import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codex } from '../../../src/sources/codex/index.js';
import { codexArchivedDir, codexTwinRank } from '../../../src/sources/codex/paths.js';
import { hiddenTwins } from '../../../src/sources/internal/compressed.js';
import { useFixtureHome, waitFor } from '../../helpers/source-harness.js';
import type { TempHome } from '../../helpers/temp-home.js';
import { copyRollout, shown } from './rollout-files.js';

// Codex moves an archived thread's rollout (`/archive`, `codex archive`) from the dated tree
// `sessions/YYYY/MM/DD/` to the flat `archived_sessions/`, under the same name; unarchiving moves
// it back. The spend happened: the thread stays one session, read from wherever its file is.
// Fixtures: fixtures/codex/segments (a thread in two files) and fixtures/codex/compressed.
const THREAD = '019f3a10-1111-7aaa-8bbb-00000000c0de';
const FIRST = `rollout-2026-11-20T10-00-00-${THREAD}.jsonl`;
const SECOND = `rollout-2026-11-21T09-00-00-${THREAD}_019f3b22-2222-7ccc-8ddd-00000000d1ff.jsonl`;
const DAY_OF: Record<string, string> = { [FIRST]: '2026/11/20', [SECOND]: '2026/11/21' };
const FIRST_TOKENS = { input: 6000, output: 1500, cacheCreation: 0, cacheRead: 14000 };

const liveOf = (home: TempHome, name: string): string => path.join(home.home, '.codex', 'sessions', DAY_OF[name] ?? '', name);
const archivedOf = (home: TempHome, name: string): string => path.join(codexArchivedDir(home.env), name);
const install = copyRollout;

describe('codex rollouts of archived threads (archived_sessions/)', () => {
  const fixture = useFixtureHome('agentwatch-codex-archived-');

  it('ranks a live rollout before its archived twin, and a plain file before its compressed one', () => {
    const rank = codexTwinRank('/c/archived_sessions');
    const live = `/c/sessions/2026/11/20/${FIRST}`;
    const archived = `/c/archived_sessions/${FIRST}`;
    const every = [archived, `${archived}.zst`, `${live}.zst`, live];
    expect([...hiddenTwins(every, () => true, rank)].sort()).toEqual([archived, `${archived}.zst`, `${live}.zst`].sort());
    expect([...hiddenTwins([archived, `${archived}.zst`], () => true, rank)]).toEqual([`${archived}.zst`]);
    expect([...hiddenTwins([archived, live], (file) => file === archived, rank)]).toEqual([]);
    // Another thread's file of another name is no twin.
    expect([...hiddenTwins([archived, `/c/sessions/2026/11/21/${SECOND}`], () => true, rank)]).toEqual([]);
  });

  it('reads a thread that is only in archived_sessions/ as the live one reads', async () => {
    await install(liveOf(fixture.home, FIRST), FIRST);
    const live = (await fixture.once(codex)).sessions().get(THREAD);
    expect(live?.tokens).toEqual(FIRST_TOKENS);
    await mkdir(codexArchivedDir(fixture.home.env), { recursive: true });
    await rename(liveOf(fixture.home, FIRST), archivedOf(fixture.home, FIRST));

    const run = await fixture.once(codex);
    expect(run.diagnostics()).toEqual([]);
    const archived = run.sessions().get(THREAD);
    expect(shown(archived)).toEqual(shown(live));
    expect(archived?.path).toBe(archivedOf(fixture.home, FIRST));
  });

  it('an archived rollout Codex compressed (.jsonl.zst) is read too', async () => {
    const file = await install(archivedOf(fixture.home, FIRST), FIRST, 'compressed');
    const run = await fixture.once(codex);
    expect(run.diagnostics()).toEqual([]);
    expect(run.sessions().get(THREAD)).toMatchObject({ userMessages: 2, tokens: FIRST_TOKENS, path: file });
  });

  it('counts a thread once while a copy is in both folders (the live one is read)', async () => {
    const live = await install(liveOf(fixture.home, FIRST), FIRST);
    await install(archivedOf(fixture.home, FIRST), FIRST);
    const run = await fixture.once(codex);
    const thread = run.sessions().get(THREAD);
    expect(thread).toMatchObject({ userMessages: 2, tokens: FIRST_TOKENS, path: live });
    expect(run.events.filter((e) => e.type === 'turn' && e.sessionId === THREAD)).toHaveLength(4);
  });

  it('a thread whose first file is archived and whose segment is live is read in order, as one session', async () => {
    await install(liveOf(fixture.home, FIRST), FIRST);
    await install(liveOf(fixture.home, SECOND), SECOND);
    const allLive = (await fixture.once(codex)).sessions().get(THREAD);
    await mkdir(codexArchivedDir(fixture.home.env), { recursive: true });
    await rename(liveOf(fixture.home, FIRST), archivedOf(fixture.home, FIRST));

    const run = await fixture.once(codex);
    const thread = run.sessions().get(THREAD);
    expect(thread?.userMessages).toBe(3);
    expect(shown(thread)).toEqual(shown(allLive));
    expect(thread?.checkpoint?.before?.map((s) => s.path)).toEqual([archivedOf(fixture.home, FIRST)]);
  });

  it('while watching: a live copy of an archived thread appearing is what is read from then on, counted once', async () => {
    const archived = await install(archivedOf(fixture.home, FIRST), FIRST);
    const run = await fixture.ready(codex);
    const before = shown(run.sessions().get(THREAD));
    expect(run.sessions().get(THREAD)?.path).toBe(archived);

    const live = await install(liveOf(fixture.home, FIRST), FIRST);
    await waitFor('the thread read from its live copy', () => run.sessions().get(THREAD)?.path === live);
    expect(shown(run.sessions().get(THREAD))).toEqual(before);
    expect(run.diagnostics()).toEqual([]);
  });

  it('while watching: archiving a thread (a move) keeps it as it was; unarchiving it and going on appends', async () => {
    const live = await install(liveOf(fixture.home, FIRST), FIRST);
    const run = await fixture.ready(codex);
    const before = shown(run.sessions().get(THREAD));
    expect(before?.userMessages).toBe(2);

    await mkdir(codexArchivedDir(fixture.home.env), { recursive: true });
    const archived = archivedOf(fixture.home, FIRST);
    await rename(live, archived);
    await waitFor('the thread read from archived_sessions/', () => run.sessions().get(THREAD)?.path === archived);
    expect(shown(run.sessions().get(THREAD))).toEqual(before);

    await rename(archived, live);
    await waitFor('the thread back in sessions/', () => run.sessions().get(THREAD)?.path === live);
    expect(shown(run.sessions().get(THREAD))).toEqual(before);
    expect(run.diagnostics()).toEqual([]);
    expect(run.events.filter((e) => e.type === 'removed')).toEqual([]);
  });
});
