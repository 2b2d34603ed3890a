import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { filter, map } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFamilyReader } from '../../../src/sources/sqlite/opencode-family/reader.js';
import { pollDatabase } from '../../../src/sources/sqlite/poll-source.js';
import { createSqlitePoller } from '../../../src/sources/sqlite/poller.js';
import type { OpenReader } from '../../../src/sources/sqlite/reader.js';
import { rx, testCtx } from '../../helpers/marbles.js';
import { buildFixtureDb } from './helpers.js';

/**
 * The poll loop on virtual time. better-sqlite3 is synchronous, so a real database can sit under
 * a TestScheduler: the writes are scheduled at virtual instants between polls.
 */
let dir = '';
let writer: Database;
let file = '';

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'aw-sqlite-marbles-'));
  file = path.join(dir, 'opencode.db');
  writer = buildFixtureDb(file, 'opencode');
});
afterEach(() => {
  writer.close();
  rmSync(dir, { recursive: true, force: true });
});

const openReader = openFamilyReader({ agent: 'opencode', label: 'OpenCode', resumeCommand: (id) => `opencode -s ${id}` });

describe('pollDatabase on ctx.scheduler', () => {
  it('polls at once and every 3 s; unchanged polls emit nothing; a commit is replayed at the next poll', () => {
    const scheduler = rx();
    scheduler.run(({ expectObservable }) => {
      const ctx = testCtx(scheduler);
      // r = reset of ses_tests, R = ready, x = removed.
      const events$ = pollDatabase(ctx, { agent: 'opencode', label: 'OpenCode', dbPath: file, openReader }).pipe(
        filter((e) => e.type === 'ready' || ('sessionId' in e && e.sessionId === 'ses_tests' && (e.type === 'reset' || e.type === 'removed'))),
        map((e) => (e.type === 'ready' ? 'R' : e.type === 'reset' ? 'r' : 'x')),
      );
      scheduler.schedule(() => {
        writer.prepare(`UPDATE session SET title = 'Run the tests again', time_updated = time_updated + 1 WHERE id = 'ses_tests'`).run();
      }, 4_000);
      scheduler.schedule(() => {
        writer.exec(`DELETE FROM part WHERE session_id = 'ses_tests'; DELETE FROM message WHERE session_id = 'ses_tests'; DELETE FROM session WHERE id = 'ses_tests'`);
      }, 10_000);
      expectObservable(events$, '^ 13s !').toBe('(rR) 5996ms r 5999ms x');
    });
  });

  it('the database appearing later is picked up at the next poll, with ready sent once at the start', () => {
    const scheduler = rx();
    const missing = path.join(dir, 'later.db');
    scheduler.run(({ expectObservable }) => {
      const ctx = testCtx(scheduler);
      const events$ = pollDatabase(ctx, { agent: 'opencode', label: 'OpenCode', dbPath: missing, openReader, intervalMs: 1_000 }).pipe(
        filter((e) => e.type === 'ready' || (e.type === 'diagnostic' && e.code !== 'E_SCHEMA') || (e.type === 'reset' && e.sessionId === 'ses_footer')),
        map((e) => (e.type === 'ready' ? 'R' : e.type === 'diagnostic' ? 'D' : 'f')),
      );
      scheduler.schedule(() => buildFixtureDb(missing, 'opencode').close(), 2_500);
      expectObservable(events$, '^ 5s !').toBe('R 2999ms f');
    });
  });
});

describe('the change check', () => {
  it('lists sessions only when another connection committed something', () => {
    let listings = 0;
    const counting: OpenReader = (db, dbPath) => {
      const reader = openReader(db, dbPath);
      return { ...reader, list: (now) => ((listings += 1), reader.list(now)) };
    };
    const poller = createSqlitePoller({ agent: 'opencode', label: 'OpenCode', dbPath: file, openReader: counting });
    try {
      poller.poll(0);
      for (let i = 0; i < 50; i++) poller.poll(i);
      expect(listings).toBe(1);
      // A write to a table the reader never reads still counts as a change: one more listing, no events.
      writer.exec(`INSERT INTO project VALUES ('prj_other', '/elsewhere', NULL, NULL, 0, 0)`);
      expect(poller.poll(100)).toEqual([]);
      expect(listings).toBe(2);
    } finally {
      poller.close();
    }
  });
});

describe('schema migrations under an open connection', () => {
  it('a dropped column is re-probed at once: no diagnostic, the rows read with the column missing', () => {
    const poller = createSqlitePoller({ agent: 'opencode', label: 'OpenCode', dbPath: file, openReader });
    try {
      poller.poll(0);
      writer.exec(`ALTER TABLE session DROP COLUMN title`);
      const after = poller.poll(1);
      expect(after.filter((e) => e.type === 'diagnostic')).toEqual([]);
      const meta = after.find((e) => e.type === 'meta' && e.sessionId === 'ses_tests');
      expect(meta).toMatchObject({ patch: { cwd: '/home/dev/site', agentName: undefined } });
    } finally {
      poller.close();
    }
  });
});

describe('the replay budget', () => {
  it('a pass larger than maxEventsPerPoll is delivered over several polls, ready after the last', () => {
    const poller = createSqlitePoller({ agent: 'opencode', label: 'OpenCode', dbPath: file, openReader, maxEventsPerPoll: 1 });
    try {
      const batches: string[][] = [];
      do {
        batches.push(poller.poll(0).flatMap((e) => (e.type === 'reset' ? [e.sessionId] : e.type === 'ready' ? ['ready'] : [])));
      } while (poller.hasMore() && batches.length < 20);
      // Newest activity first: the sessions a user looks for come in the first batches.
      expect(batches).toEqual([['ses_junk'], ['ses_compact'], ['ses_tests'], ['ses_footer'], ['ses_explore', 'ready']]);
      expect(poller.poll(1)).toEqual([]);
    } finally {
      poller.close();
    }
  });

  it('the batches run back to back on the scheduler, then the normal interval resumes', () => {
    const scheduler = rx();
    scheduler.run(({ expectObservable }) => {
      const ctx = testCtx(scheduler);
      const events$ = pollDatabase(ctx, { agent: 'opencode', label: 'OpenCode', dbPath: file, openReader, maxEventsPerPoll: 1 }).pipe(
        filter((e) => e.type === 'ready' || e.type === 'reset'),
        map((e) => (e.type === 'ready' ? 'R' : 'r')),
      );
      scheduler.schedule(() => writer.prepare(`UPDATE session SET time_updated = time_updated + 1 WHERE id = 'ses_tests'`).run(), 1_000);
      expectObservable(events$, '^ 4s !').toBe('(rrrrrR) 2992ms r');
    });
  });
});

describe('one-shot (watch: false)', () => {
  it('polls once, emits ready and completes, leaving no connection or timer behind', () => {
    const scheduler = rx();
    scheduler.run(({ expectObservable }) => {
      const ctx = { ...testCtx(scheduler), watch: false };
      const events$ = pollDatabase(ctx, { agent: 'opencode', label: 'OpenCode', dbPath: file, openReader }).pipe(
        filter((e) => e.type === 'ready' || (e.type === 'reset' && e.sessionId === 'ses_tests')),
        map((e) => (e.type === 'ready' ? 'R' : 'r')),
      );
      expectObservable(events$).toBe('(rR|)');
    });
  });
});

describe('unsubscribing', () => {
  it('stops polling: no poll runs after unsubscribe', () => {
    const scheduler = rx();
    let polls = 0;
    scheduler.run(() => {
      const ctx = { ...testCtx(scheduler), now: () => (polls += 1) };
      const subscription = pollDatabase(ctx, { agent: 'opencode', label: 'OpenCode', dbPath: file, openReader }).subscribe();
      scheduler.schedule(() => subscription.unsubscribe(), 7_000);
    });
    // Polls at 0, 3 s and 6 s; none after the unsubscribe at 7 s although the scheduler ran on.
    expect(polls).toBe(3);
  });
});
