import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { createCodexParser } from '../../../src/sources/codex/parse.js';
import { codexArchivedDir, codexFamilyOf, codexSessionsDir, codexTwinRank, codexTwinsOf } from '../../../src/sources/codex/paths.js';
import { createFileTracker } from '../../../src/sources/internal/file-tracker.js';
import type { FileTracker } from '../../../src/sources/internal/file-tracker-types.js';
import { foldById, useFixtureHome } from '../../helpers/source-harness.js';
import type { TempHome } from '../../helpers/temp-home.js';
import { copyRollout, PLAIN_ROLLOUTS } from './rollout-files.js';

// Codex writes a rollout's twin (its .zst, its copy in archived_sessions/, the plain file back on
// resume) before it deletes the file it replaces, but a watcher can report the deletion first.
// The deletion alone must not remove the session: the twin already on disk takes its place.
// Each test hands the tracker only the deletion, as a watcher that has not yet seen the twin would.
const THREAD = '019f3a10-1111-7aaa-8bbb-00000000c0de';
const FIRST = `rollout-2026-11-20T10-00-00-${THREAD}.jsonl`;
const SECOND = `rollout-2026-11-21T09-00-00-${THREAD}_019f3b22-2222-7ccc-8ddd-00000000d1ff.jsonl`;

const liveOf = (home: TempHome): string => path.join(codexSessionsDir(home.env), '2026', '11', '20', FIRST);
const archivedOf = (home: TempHome): string => path.join(codexArchivedDir(home.env), FIRST);

const trackerIn = (home: TempHome): { tracker: FileTracker; events: SessionEvent[] } => {
  const events: SessionEvent[] = [];
  const archived = codexArchivedDir(home.env);
  const tracker = createFileTracker({
    agent: 'codex',
    createParser: createCodexParser,
    emit: (event) => events.push(event),
    sideMeta: () => undefined,
    familyOf: codexFamilyOf,
    twinRank: codexTwinRank(archived),
    twinsOf: codexTwinsOf(codexSessionsDir(home.env), archived),
  });
  return { tracker, events };
};

const kinds = (events: readonly SessionEvent[]): string[] => events.map((e) => e.type).filter((type) => type === 'reset' || type === 'removed');

describe('codex: a twin on disk takes the place of a rollout whose deletion is reported first', () => {
  const fixture = useFixtureHome('agentwatch-codex-twins-');

  it('names where the twins of a rollout would be: beside it, and under the same name in the other root', () => {
    const twinsOf = codexTwinsOf('/c/sessions', '/c/archived_sessions');
    const live = `/c/sessions/2026/11/20/${FIRST}`;
    const archived = `/c/archived_sessions/${FIRST}`;
    expect(twinsOf(live).sort()).toEqual([`${live}.zst`, archived, `${archived}.zst`].sort());
    expect(twinsOf(`${archived}.zst`).sort()).toEqual([archived, live, `${live}.zst`].sort());
    // A rollout filed under another folder than its name's day: its own folder, and the day's.
    expect(twinsOf(`/c/sessions/x/${FIRST}`)).toContain(live);
  });

  it('compression: the plain file gone, the thread is read again from its .zst, never removed', async () => {
    const plain = await copyRollout(liveOf(fixture.home), FIRST);
    const { tracker, events } = trackerIn(fixture.home);
    await tracker.sync(plain, THREAD);
    const compressed = await copyRollout(liveOf(fixture.home), FIRST, 'compressed');
    await rm(plain);
    events.length = 0;
    await tracker.sync(plain, THREAD);
    expect(kinds(events)).toEqual(['reset']);
    expect(tracker.trackedFiles()).toEqual([compressed]);
    expect(foldById(events).get(THREAD)?.userMessages).toBe(2);
    // The watcher's late report of the .zst finds it read: nothing more.
    events.length = 0;
    await tracker.sync(compressed, THREAD);
    expect(events).toEqual([]);
  });

  it('compression: the .zst reported while the deletion is being synced is read in its place, never removed', async () => {
    const plain = await copyRollout(liveOf(fixture.home), FIRST);
    const { tracker, events } = trackerIn(fixture.home);
    await tracker.sync(plain, THREAD);
    const compressed = await copyRollout(liveOf(fixture.home), FIRST, 'compressed');
    await rm(plain);
    events.length = 0;
    // The deletion's sync looks at the file (asynchronously) while the watcher reports the .zst:
    // the .zst joins the thread's family before the deletion is seen.
    const deletion = tracker.sync(plain, THREAD);
    const addition = tracker.sync(compressed, THREAD);
    await Promise.all([deletion, addition]);
    expect(kinds(events)).toEqual(['reset']);
    expect(tracker.trackedFiles()).toEqual([compressed]);
    expect(foldById(events).get(THREAD)?.userMessages).toBe(2);
  });

  it('resume: the .zst gone, the plain file written back (with a new turn) is read, never removed', async () => {
    const compressed = await copyRollout(liveOf(fixture.home), FIRST, 'compressed');
    const { tracker, events } = trackerIn(fixture.home);
    await tracker.sync(compressed, THREAD);
    const more = { timestamp: '2026-11-27T09:00:00.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'and a wishlist' } };
    const plain = liveOf(fixture.home);
    await writeFile(plain, `${await readFile(path.join(PLAIN_ROLLOUTS, FIRST), 'utf8')}${JSON.stringify(more)}\n`);
    await rm(compressed);
    events.length = 0;
    await tracker.sync(compressed, THREAD);
    expect(kinds(events)).toEqual(['reset']);
    expect(tracker.trackedFiles()).toEqual([plain]);
    expect(foldById(events).get(THREAD)?.userMessages).toBe(3);
  });

  it('archiving (a move to archived_sessions/): read from there, never removed; unarchiving: back', async () => {
    const live = await copyRollout(liveOf(fixture.home), FIRST);
    const { tracker, events } = trackerIn(fixture.home);
    await tracker.sync(live, THREAD);
    await mkdir(codexArchivedDir(fixture.home.env), { recursive: true });
    const archived = archivedOf(fixture.home);
    await rename(live, archived);
    events.length = 0;
    await tracker.sync(live, THREAD);
    expect(kinds(events)).toEqual(['reset']);
    expect(tracker.trackedFiles()).toEqual([archived]);
    expect(foldById(events).get(THREAD)?.userMessages).toBe(2);

    await rename(archived, live);
    events.length = 0;
    await tracker.sync(archived, THREAD);
    expect(kinds(events)).toEqual(['reset']);
    expect(tracker.trackedFiles()).toEqual([live]);
    expect(foldById(events).get(THREAD)?.userMessages).toBe(2);
  });

  it('a thread in two files, its first one compressed: read again in order from the .zst and the segment', async () => {
    const first = await copyRollout(liveOf(fixture.home), FIRST);
    const second = await copyRollout(path.join(codexSessionsDir(fixture.home.env), '2026', '11', '21', SECOND), SECOND);
    const { tracker, events } = trackerIn(fixture.home);
    await tracker.sync(first, THREAD);
    await tracker.sync(second, THREAD);
    expect(foldById(events).get(THREAD)?.userMessages).toBe(3);
    const compressed = await copyRollout(first, FIRST, 'compressed');
    await rm(first);
    events.length = 0;
    await tracker.sync(first, THREAD);
    expect(kinds(events)).toEqual(['reset']);
    expect(tracker.trackedFiles().sort()).toEqual([compressed, second].sort());
    expect(foldById(events).get(THREAD)?.userMessages).toBe(3);
  });

  it('a rollout deleted with no twin anywhere is removed', async () => {
    const plain = await copyRollout(liveOf(fixture.home), FIRST);
    const { tracker, events } = trackerIn(fixture.home);
    await tracker.sync(plain, THREAD);
    await rm(plain);
    events.length = 0;
    await tracker.sync(plain, THREAD);
    expect(kinds(events)).toEqual(['removed']);
    expect(tracker.trackedFiles()).toEqual([]);
  });
});
