import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../src/core/session.js';
import { opencode } from '../../src/sources/opencode/index.js';
import { opencodeDbPath } from '../../src/sources/opencode/paths.js';
import type { FamilyMessageRow } from '../../src/sources/sqlite/opencode-family/map.js';
import { openFamilyReader } from '../../src/sources/sqlite/opencode-family/reader.js';
import { idTime, leadingCandidates } from '../../src/sources/sqlite/opencode-family/v1-forks.js';
import { foldById, makeCtx } from '../helpers/source-harness.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { activityAt, fixtureSql, foldSession, forSession, ofType, passWithCache, pollFamilyDb, spendOf } from './sqlite/helpers.js';

// OpenCode 1.x and Kilo forks (fixtures/opencode/v1-fork.sql, fixtures/kilo/v1-fork.sql): Session.fork
// copies the forked session's messages into a new session under new ids, with no link to it; the
// copies are the fork's history, not usage or messages of its own.
const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures');
const forkSql = (agent: 'opencode' | 'kilo'): string => readFileSync(path.join(FIXTURES, agent, 'v1-fork.sql'), 'utf8');
const NOW = 1790201000000;

const PARENT = 'ses_f2fc3d1ffffeYAbhGgklP7nBgC';
const FORK = 'ses_f2fbaaa3fffekHXmIvZQv9fjJE';
const ORPHAN = 'ses_f2fb6165fffesRmY6Uq684YkTZ';
/** The parent's first answer, copied into FORK. */
const PARENT_ANSWER = 'msg_0d03c35d0001cM9x0BOOf5WhBA';
const KILO_PARENT = 'ses_f29cdf0ffffergKoP5VvmNI928';
const KILO_FORK = 'ses_f29c95d1fffeGEvHKHiGqstOWx';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'aw-opencode1-fork-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real database file: the agent's 1.x schema, its fork rows, then `alter` (SQL run last); one poll of it. */
const pollOf = (name: string, alter = '', agent: 'opencode' | 'kilo' = 'opencode'): SessionEvent[] =>
  pollFamilyDb(path.join(dir, `${name}.db`), agent, [fixtureSql(agent, 'schema'), forkSql(agent), alter], NOW);

const PARENT_SPEND = {
  tokens: { input: 2500, output: 550, cacheCreation: 600, cacheRead: 10000 },
  cost: 0.05,
  userMessages: 2,
  assistantMessages: 2,
};
const FORK_OWN = {
  tokens: { input: 700, output: 150, cacheCreation: 200, cacheRead: 3000 },
  cost: 0.011,
  userMessages: 1,
  assistantMessages: 1,
};

describe('OpenCode 1.x forks: copies of another session add neither usage nor messages', () => {
  let events: SessionEvent[] = [];
  beforeAll(() => {
    events = pollOf('forks');
  });

  it('a fork counts only its own exchange; the session it was forked from is unchanged', () => {
    expect(spendOf(events, PARENT)).toEqual(PARENT_SPEND);
    expect(spendOf(events, FORK)).toEqual(FORK_OWN);
    expect(ofType(events, 'diagnostic')).toEqual([]);
  });

  it("the copies stay the fork's history: their turns, tools and file writes, in order", () => {
    const fork = forSession(events, FORK);
    expect(ofType(fork, 'turn').map((t) => [t.text, t.counts])).toEqual([
      ['Add rate limiting to the API', false],
      ['Added a fixed-window limiter in src/limit.ts.', false],
      ['Use a token bucket instead', undefined],
      ['Switched to a token bucket.', undefined],
    ]);
    expect(ofType(fork, 'tool_call').map((c) => c.callId)).toEqual(['toolu_p1']);
    expect(ofType(fork, 'usage')).toHaveLength(1);
    expect(foldSession(events, FORK)).toMatchObject({ lastFileWrite: '/home/dev/api/src/limit.ts', model: 'claude-sonnet-4-5' });
    // As for a fork of 2.x (asCopied): the copies' texts are the parent's messages, not the fork's.
    expect(foldSession(events, FORK)?.recentMessages.map((m) => m.text)).toEqual(['Use a token bucket instead', 'Switched to a token bucket.']);
    expect(activityAt(events, FORK, 1790200670000 + 30_000)).toBe('waiting');
  });

  it('a fork whose parent was deleted cannot be told from its copies alone: everything counts, as before', () => {
    expect(spendOf(events, ORPHAN)).toEqual({
      tokens: { input: 1100, output: 120, cacheCreation: 0, cacheRead: 0 },
      cost: 0.011,
      userMessages: 2,
      assistantMessages: 2,
    });
  });

  it('a copy no longer identical to its original counts (fail open); the other copy still does not', () => {
    const out = pollOf('changed-original', `UPDATE message SET data = replace(data, '"input":1000', '"input":1001') WHERE id = '${PARENT_ANSWER}';`);
    expect(spendOf(out, FORK)).toEqual({
      tokens: { input: 1700, output: 400, cacheCreation: 800, cacheRead: 7000 },
      cost: 0.031,
      userMessages: 1,
      assistantMessages: 2,
    });
  });

  it('without time_created the copies cannot be told: every message counts', () => {
    const out = pollOf(
      'no-time-created',
      `PRAGMA foreign_keys = OFF;
       CREATE TABLE m2 AS SELECT id, session_id, time_updated, data FROM message;
       DROP TABLE message; ALTER TABLE m2 RENAME TO message;`,
    );
    expect(spendOf(out, FORK)).toMatchObject({ cost: 0.031, userMessages: 2, assistantMessages: 2 });
  });
});

describe('Kilo forks (the same code): copies count nothing, a copied answer Kilo zeroed the cost of included', () => {
  it('the fork counts only its own exchange, its parent everything', () => {
    const events = pollOf('kilo-forks', '', 'kilo');
    expect(ofType(events, 'diagnostic')).toEqual([]);
    expect(spendOf(events, KILO_PARENT)).toEqual({
      tokens: { input: 1200, output: 320, cacheCreation: 0, cacheRead: 5000 },
      cost: 0.015,
      userMessages: 1,
      assistantMessages: 1,
    });
    expect(spendOf(events, KILO_FORK)).toEqual({
      tokens: { input: 400, output: 90, cacheCreation: 0, cacheRead: 0 },
      cost: 0.005,
      userMessages: 1,
      assistantMessages: 1,
    });
    expect(ofType(forSession(events, KILO_FORK), 'turn').map((t) => t.counts)).toEqual([false, false, undefined, undefined]);
  });
});

/** An OpenCode message id made at `ms` (counter 1), as Identifier.create writes it. */
const idAt = (ms: number, tail = 'AAAAAAAAAAAAAA'): string => `msg_${(BigInt.asUintN(48, BigInt(ms) * 0x1000n + 1n)).toString(16).padStart(12, '0')}${tail}`;
const row = (id: string, created: number, data = '{}'): FamilyMessageRow => ({ id, time_created: created, data });
/** Ids wrap every 2^36 ms (48 bits of ms * 0x1000): one such instant, in 2026. */
const WRAP = 26 * 2 ** 36;

describe('telling copies by their ids', () => {
  it('an id tells the ms it was made, modulo 2^36; ids of another shape tell nothing', () => {
    expect(idTime('msg_0d03c31e8001zz33Mskfg7lbQF')).toEqual({ prefix: 'msg', ms: 1790200001000 % 2 ** 36 });
    expect(idTime(idAt(WRAP + 5))).toEqual({ prefix: 'msg', ms: 5 });
    for (const id of ['msg_f01', 'msg_0D03C31E8001zz33Mskfg7lbQF', 'msg0d03c31e8001zz33Mskfg7lbQF', '_0d03c31e8001zz']) expect(idTime(id)).toBeUndefined();
  });

  it("the candidates are the session's first messages made more than 60 s after their time_created, across the wrap", () => {
    const t = 1790200000000;
    const copies = [row(idAt(t + 600_000), t), row(idAt(t + 600_001), t + 5_000)];
    const own = row(idAt(t + 660_000), t + 660_000);
    // Copied again after the fork's own message: not leading, so not a candidate.
    const later = row(idAt(t + 700_000), t + 10_000);
    expect(leadingCandidates([...copies, own, later]).map((c) => c.row.id)).toEqual(copies.map((c) => c.id));
    // Within the skew (a slow write), an id made a moment before its time_created (seen round the wrap), no id to read.
    expect(leadingCandidates([row(idAt(t + 59_000), t)])).toEqual([]);
    expect(leadingCandidates([row(idAt(t - 5), t)])).toEqual([]);
    expect(leadingCandidates([row('msg_f01', t)])).toEqual([]);
    expect(leadingCandidates([row(idAt(WRAP + 300_000), WRAP - 20_000)]).map((c) => c.createdMs)).toEqual([WRAP - 20_000]);
  });

  it('an original whose id window crosses the wrap is found (real database file)', () => {
    const file = path.join(dir, 'wrap.db');
    const db = new BetterSqlite3(file);
    db.exec(fixtureSql('opencode', 'schema'));
    db.exec(`INSERT INTO project VALUES ('prj', '/w', NULL, NULL, ${WRAP - 30_000}, ${WRAP - 30_000});`);
    const session = db.prepare(`INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'prj', 's', '/w', ?, '1.0.0', ?, ?)`);
    const message = db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)');
    const prompt = JSON.stringify({ role: 'user', time: { created: WRAP - 20_000 }, agent: 'build' });
    const answer = (parentID: string): string =>
      JSON.stringify({ parentID, role: 'assistant', cost: 0.01, tokens: { input: 100, output: 10, reasoning: 0, cache: { read: 0, write: 0 } }, time: { created: WRAP - 19_000, completed: WRAP - 15_000 } });
    session.run('ses_p', 'Wrapped', WRAP - 30_000, WRAP - 15_000);
    message.run(idAt(WRAP - 20_000, 'P1AAAAAAAAAAAA'), 'ses_p', WRAP - 20_000, WRAP - 20_000, prompt);
    message.run(idAt(WRAP - 19_000, 'P2AAAAAAAAAAAA'), 'ses_p', WRAP - 19_000, WRAP - 15_000, answer(idAt(WRAP - 20_000, 'P1AAAAAAAAAAAA')));
    session.run('ses_f', 'Wrapped (fork #1)', WRAP + 300_000, WRAP + 300_000);
    message.run(idAt(WRAP + 300_000, 'F1AAAAAAAAAAAA'), 'ses_f', WRAP - 20_000, WRAP + 300_000, prompt);
    message.run(idAt(WRAP + 300_001, 'F2AAAAAAAAAAAA'), 'ses_f', WRAP - 19_000, WRAP + 300_001, answer(idAt(WRAP + 300_000, 'F1AAAAAAAAAAAA')));
    const reader = openFamilyReader({ agent: 'opencode', label: 'OpenCode', resumeCommand: (id) => id })(db, file);
    expect(ofType(reader.load('ses_f'), 'usage')).toEqual([]);
    expect(ofType(reader.load('ses_p'), 'usage')).toHaveLength(1);
    db.close();
  });
});


describe('a 1.x fork across warm starts (discovery cache), as a fork of 2.x', () => {
  let home: TempHome;
  let dbPath: string;
  beforeEach(async () => {
    home = await makeTempHome('agentwatch-v1-fork-warm-');
    dbPath = opencodeDbPath(home.env);
    mkdirSync(path.dirname(dbPath), { recursive: true });
    const db = new BetterSqlite3(dbPath);
    db.pragma('journal_mode = WAL');
    db.exec(fixtureSql('opencode', 'schema'));
    db.exec(forkSql('opencode'));
    db.close();
  });
  afterEach(() => home.cleanup());

  it('a restored fork keeps its copies uncounted, even once its parent is deleted; reloaded, it is judged again', async () => {
    const ctx = makeCtx(home.env);
    const cold = await passWithCache(opencode, ctx);
    const ownSpend = foldById(cold).get(FORK);
    expect(ownSpend).toMatchObject({ recordedCostUsd: 0.011, userMessages: 1, assistantMessages: 1 });

    const writer = new BetterSqlite3(dbPath);
    writer.exec(`DELETE FROM part WHERE session_id = '${PARENT}'; DELETE FROM message WHERE session_id = '${PARENT}'; DELETE FROM session WHERE id = '${PARENT}';`);
    writer.close();
    const warm = await passWithCache(opencode, ctx);
    expect(warm.filter((e) => e.type === 'reset')).toEqual([]);
    expect(warm.filter((e) => e.type === 'removed').map((e) => 'sessionId' in e && e.sessionId)).toEqual([PARENT]);
    expect(foldById(warm).get(FORK)).toMatchObject({ recordedCostUsd: 0.011, userMessages: 1, assistantMessages: 1, tokens: ownSpend?.tokens });

    // The fork changes: it is read again, and with no original left its copies count (fail open).
    const again = new BetterSqlite3(dbPath);
    again.prepare('UPDATE session SET title = ? WHERE id = ?').run('Token bucket', FORK);
    again.close();
    const reloaded = await passWithCache(opencode, ctx);
    expect(reloaded.filter((e) => e.type === 'reset').map((e) => 'sessionId' in e && e.sessionId)).toEqual([FORK]);
    expect(foldById(reloaded).get(FORK)).toMatchObject({ userMessages: 2, assistantMessages: 2 });
  });
});
