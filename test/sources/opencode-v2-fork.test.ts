import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/core/session.js';
import { parseForkBoundary } from '../../src/sources/sqlite/opencode-family/map-v2.js';
import { activityAt, fixtureSql, foldSession, forSession, ofType, pollFamilyDb, spendOf } from './sqlite/helpers.js';

// OpenCode 2.x forks (fixtures/opencode/v2-fork.sql): a fork's `session_message` holds copies of its
// parent's messages under new ids; they are its history, not usage or messages of its own.
const forkSql = readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/opencode/v2-fork.sql'), 'utf8');
const NOW = 1790100500000;

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'aw-opencode2-fork-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real database file: the 2.x schema, the fork rows, then `alter` (SQL run last); one poll of it. */
const pollOf = (name: string, alter = ''): SessionEvent[] => pollFamilyDb(path.join(dir, `${name}.db`), 'opencode', [fixtureSql('opencode', 'v2-schema'), forkSql, alter], NOW);

const PARENT = {
  tokens: { input: 2500, output: 550, cacheCreation: 600, cacheRead: 10000 },
  cost: 0.05,
  userMessages: 2,
  assistantMessages: 2,
};

describe('OpenCode 2.x forks: copies of the parent add neither usage nor messages', () => {
  let events: SessionEvent[] = [];
  beforeAll(() => {
    events = pollOf('forks');
  });

  it('a fork made before a message counts only its own exchange; the parent is unchanged', () => {
    expect(spendOf(events, 'ses_main')).toEqual(PARENT);
    expect(spendOf(events, 'ses_fork')).toEqual({
      tokens: { input: 700, output: 150, cacheCreation: 200, cacheRead: 3000 },
      cost: 0.011,
      userMessages: 1,
      assistantMessages: 1,
    });
    expect(ofType(events, 'diagnostic')).toEqual([]);
  });

  it('the copies stay the fork\'s history: their turns, tools and file writes, in order', () => {
    const fork = forSession(events, 'ses_fork');
    expect(ofType(fork, 'turn').map((t) => [t.text, t.counts])).toEqual([
      ['Add a /health endpoint', false],
      ['Added GET /health in src/health.ts.', false],
      ['Make it a readiness probe instead', undefined],
      ['It is /ready now.', undefined],
    ]);
    expect(ofType(fork, 'tool_call').map((c) => c.callId)).toEqual(['toolu_m1']);
    expect(ofType(fork, 'usage').map((u) => u.messageId)).toEqual(['msg_f04']);
    expect(foldSession(events, 'ses_fork')).toMatchObject({ lastFileWrite: '/home/dev/svc/src/health.ts', model: 'claude-sonnet-4-5' });
    expect(foldSession(events, 'ses_fork')?.recentMessages.map((m) => m.text)).toEqual(['Make it a readiness probe instead', 'It is /ready now.']);
    expect(activityAt(events, 'ses_fork', 1790100110000 + 30_000)).toBe('waiting');
  });

  it('a boundary of another type names the last message copied (copies told by position, not content)', () => {
    expect(spendOf(events, 'ses_through')).toEqual({
      tokens: { input: 300, output: 40, cacheCreation: 0, cacheRead: 0 },
      cost: 0.004,
      userMessages: 1,
      assistantMessages: 1,
    });
    expect(ofType(forSession(events, 'ses_through'), 'tool_call').map((c) => c.callId)).toEqual(['toolu_t1']);
  });

  it('a fork without a boundary: the messages identical to the parent\'s at the same seq are the copies', () => {
    expect(spendOf(events, 'ses_whole')).toEqual({
      tokens: { input: 400, output: 80, cacheCreation: 0, cacheRead: 0 },
      cost: 0.005,
      userMessages: 1,
      assistantMessages: 1,
    });
    expect(ofType(forSession(events, 'ses_whole'), 'turn')).toHaveLength(6);
  });

  it('a fork whose parent is gone cannot be resolved: everything counts, as before', () => {
    expect(spendOf(events, 'ses_orphan')).toEqual({
      tokens: { input: 1100, output: 120, cacheCreation: 0, cacheRead: 0 },
      cost: 0.011,
      userMessages: 2,
      assistantMessages: 2,
    });
  });

  it('an unparseable boundary falls back to identity: a copy whose content differs from the parent\'s counts', () => {
    const out = pollOf('bad-boundary', `UPDATE session_v2 SET fork_boundary = 'after msg_m02' WHERE id = 'ses_through';`);
    // The copied prompt is identical to the parent's (not counted); the copied answer's content ids
    // were rewritten, so nothing shows it is a copy: its usage counts (fail open).
    expect(spendOf(out, 'ses_through')).toEqual({
      tokens: { input: 1300, output: 290, cacheCreation: 600, cacheRead: 4000 },
      cost: 0.024,
      userMessages: 1,
      assistantMessages: 2,
    });
    expect(spendOf(out, 'ses_fork')).toMatchObject({ userMessages: 1, assistantMessages: 1, cost: 0.011 });
  });

  it('a boundary naming a message the parent no longer has falls back to identity', () => {
    const out = pollOf('stale-boundary', `UPDATE session_v2 SET fork_boundary = '{"type":"before","messageID":"msg_nope"}' WHERE id = 'ses_fork';`);
    expect(spendOf(out, 'ses_fork')).toMatchObject({ tokens: { input: 700, output: 150, cacheCreation: 200, cacheRead: 3000 }, userMessages: 1 });
  });
});

describe('sessions of tables without the fork columns (older 2.0 betas) are read as before', () => {
  it('no fork is known: every message counts, nothing is reported', () => {
    const events = pollOf('no-fork-columns', 'ALTER TABLE session_v2 DROP COLUMN fork_boundary; ALTER TABLE session_v2 DROP COLUMN fork_session_id;');
    expect(ofType(events, 'diagnostic')).toEqual([]);
    expect(spendOf(events, 'ses_main')).toEqual(PARENT);
    expect(spendOf(events, 'ses_fork')).toEqual({
      tokens: { input: 1700, output: 400, cacheCreation: 800, cacheRead: 7000 },
      cost: 0.031,
      userMessages: 2,
      assistantMessages: 2,
    });
  });

  it('a session_message without seq: copies cannot be placed, so every message counts', () => {
    // Rebuilt without `seq` (Kilo's bundled CLI wrote such rows; all of them are read here).
    const events = pollOf(
      'no-seq',
      `CREATE TABLE m2 AS SELECT id, session_id, type, time_created, time_updated, data FROM session_message;
       DROP TABLE session_message; ALTER TABLE m2 RENAME TO session_message;`,
    );
    expect(spendOf(events, 'ses_fork')).toMatchObject({ cost: 0.031, userMessages: 2, assistantMessages: 2 });
  });
});

describe('parseForkBoundary', () => {
  it('reads the message named and whether it was copied; anything else is no boundary', () => {
    expect(parseForkBoundary('{"type":"before","messageID":"msg_1"}')).toEqual({ messageId: 'msg_1', inclusive: false });
    expect(parseForkBoundary('{"type":"after","messageID":"msg_1"}')).toEqual({ messageId: 'msg_1', inclusive: true });
    expect(parseForkBoundary(Buffer.from('{"messageID":"msg_1"}'))).toEqual({ messageId: 'msg_1', inclusive: true });
    for (const raw of [null, '', 'msg_1', '{"type":"before"}', '{"type":"before","messageID":""}', '[1]', '{"type":"before","messageID":7}']) {
      expect(parseForkBoundary(raw)).toBeUndefined();
    }
  });
});
