import { statSync, truncateSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDiscoveryCache } from '../../src/sources/internal/cache.js';
import { createSqlitePoller } from '../../src/sources/sqlite/poller.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { buildTemplate, checkPass, databaseDiagnostics, diagnosticCounts, diagnosticsOf, FLAVOUR, openCopy, runOnce, runWithCache, statesOf, type Flavour } from './sqlite-helpers.js';

/**
 * The bugs the SQLite fuzz tests found, each as the smallest case that shows it, on real
 * database files built from the fixtures.
 */

const DEBOUNCE = '9c1e7a52-3f0b-4d8e-a1c2-5b6d7e8f9a01';
const BROKEN_COMPOSER = '5e0a3f44-dddd-4eee-bfff-000000000005';

let home: TempHome;
beforeEach(async () => {
  home = await makeTempHome('aw-sqlite-regressions-');
});
afterEach(() => home.cleanup());

/** The flavour's fixture database at its agent's path in the temp HOME, altered by `sql`. */
const fixtureWith = (flavour: Flavour, sql = ''): string => {
  const template = path.join(home.root, `${flavour}.db`);
  buildTemplate(flavour, template);
  const dbPath = FLAVOUR[flavour].dbPath(home.env);
  const db = openCopy(template, dbPath);
  db.exec(sql);
  db.close();
  return dbPath;
};

/** One one-shot pass of the flavour's source, checked against the contract (ids, finite non-negative counts). */
const pass = (flavour: Flavour, dbPath: string) => {
  const result = runOnce(flavour, home.env);
  checkPass(result, dbPath);
  return result;
};

const setJson = (table: string, id: string, pathInJson: string, value: string): string => `UPDATE ${table} SET data = json_set(data, '${pathInJson}', json('${value}')) WHERE id = '${id}';`;

describe('token counts and costs that are no counts', () => {
  it.each([
    ['a negative input', 'message', '$.tokens.input', '-5'],
    ['a negative cost', 'message', '$.cost', '-0.5'],
    ['a count beyond 2^53', 'message', '$.tokens.cache.read', '1152921504606846976'],
  ])('OpenCode 1.x: %s fails the message (a diagnostic), the session totals stay valid', (_what, table, at, value) => {
    const dbPath = fixtureWith('opencode', setJson(table, 'msg_f02', at, value));
    const events = pass('opencode', dbPath).events;
    expect(diagnosticsOf(events).filter((d) => d.sessionId === 'ses_footer').map((d) => d.message)).toEqual([expect.stringMatching(/^message msg_f02: /)]);
    expect(statesOf(events).get('ses_footer')).toMatchObject({ tokens: { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 }, recordedCostUsd: 0 });
  });

  it('OpenCode 2.x: a negative output fails the message', () => {
    const dbPath = fixtureWith('opencode-v2', `UPDATE session_message SET data = json_set(data, '$.tokens.output', -300) WHERE id = 'msg_r02';`);
    const events = pass('opencode-v2', dbPath).events;
    expect(diagnosticsOf(events).filter((d) => d.sessionId === 'ses_rename').map((d) => d.message)).toEqual([expect.stringMatching(/^message msg_r02: /)]);
  });

  it('Cursor: a negative inputTokens fails the bubble, the composer keeps the rest', () => {
    const key = `bubbleId:${DEBOUNCE}:b-002`;
    const dbPath = fixtureWith('cursor', `UPDATE cursorDiskKV SET value = json_set(value, '$.tokenCount.inputTokens', -5200) WHERE key = '${key}';`);
    const events = pass('cursor', dbPath).events;
    expect(diagnosticsOf(events).filter((d) => d.sessionId === DEBOUNCE).map((d) => d.message)).toEqual([expect.stringMatching(/^bubble b-002: /)]);
    expect(statesOf(events).get(DEBOUNCE)?.tokens).toEqual({ input: 600, output: 140, cacheCreation: 0, cacheRead: 0 });
  });
});

describe('rows whose id is not text (a TEXT primary key holds NULL or a BLOB)', () => {
  it('a message id NULL is one diagnostic of its session; the database is still read (it was an E_READ of the whole file)', () => {
    const dbPath = fixtureWith('opencode', `UPDATE message SET id = NULL WHERE id = 'msg_f01';`);
    const events = pass('opencode', dbPath).events;
    expect(databaseDiagnostics(events)).toEqual([]);
    expect(statesOf(events).size).toBe(8);
    expect(diagnosticsOf(events).filter((d) => d.sessionId === 'ses_footer').map((d) => d.message)).toEqual(['1 message row whose id is NULL, not text, skipped']);
  });

  it('a BLOB id of a session, a message or a part never becomes an id in an event', () => {
    const dbPath = fixtureWith(
      'opencode',
      `UPDATE session SET id = x'6869' WHERE id = 'ses_tests';
       UPDATE message SET id = x'6869' WHERE id = 'msg_f02';
       UPDATE part SET id = x'6869' WHERE id = 'prt_j04a';`,
    );
    const events = pass('opencode', dbPath).events;
    expect([...statesOf(events).keys()]).not.toContain('ses_tests');
    expect(diagnosticsOf(events).map((d) => [d.sessionId, d.message])).toEqual(
      expect.arrayContaining([
        [undefined, '1 "session" session row whose id is a BLOB, not text, skipped'],
        ['ses_footer', '1 message row whose id is a BLOB, not text, skipped'],
        ['ses_junk', '1 part row whose id is a BLOB, not text, skipped'],
      ]),
    );
  });

  it('Cursor: a composer key with no id after its prefix is a diagnostic, not a session without an id', () => {
    const composer = JSON.stringify({ createdAt: 1773137400000, lastUpdatedAt: 1773137412000, fullConversationHeadersOnly: [{ bubbleId: 'x', type: 1 }] });
    const dbPath = fixtureWith('cursor', `INSERT INTO cursorDiskKV VALUES ('composerData:', '${composer}');`);
    const events = pass('cursor', dbPath).events;
    expect(diagnosticsOf(events).map((d) => d.message)).toContain('composer row without an id (key "composerData:") skipped');
    expect(statesOf(events).size).toBe(3);
  });
});

describe('a database the reader cannot use says so', () => {
  it('OpenCode sessions with no message table anywhere (neither 1.x "message" nor 2.x "session_message") are E_DB_SCHEMA, not sessions without messages', () => {
    const dbPath = fixtureWith('opencode', 'DROP TABLE part; DROP TABLE message;');
    const events = pass('opencode', dbPath).events;
    expect(statesOf(events).size).toBe(0);
    expect(databaseDiagnostics(events)).toEqual([expect.objectContaining({ code: 'E_DB_SCHEMA', message: expect.stringContaining('table "message" is missing') })]);
  });

  it('a file cut inside its last page is E_DB_CORRUPT naming it (SQLite read the cut page as zeros: composers vanished in silence)', () => {
    const dbPath = fixtureWith('cursor');
    truncateSync(dbPath, statSync(dbPath).size - 999);
    const events = pass('cursor', dbPath).events;
    expect(databaseDiagnostics(events)).toEqual([
      expect.objectContaining({ code: 'E_DB_CORRUPT', message: expect.stringMatching(/database .*state\.vscdb is corrupt .*not a whole number of 4096-byte pages/) }),
    ]);
  });
});

describe('a warm start counts the diagnostics a cold start counts', () => {
  it('an unchanged database restored without a query still counts what its listing could not use (a composer that is not JSON)', async () => {
    const dbPath = fixtureWith('cursor');
    const cold = await runWithCache('cursor', home.env);
    checkPass(cold, dbPath);
    expect(diagnosticCounts(cold.events)[`${BROKEN_COMPOSER}:E_SCHEMA`]).toBe(1);
    const warm = await runWithCache('cursor', home.env);
    checkPass(warm, dbPath);
    expect(warm.events.filter((e) => e.type === 'reset')).toEqual([]);
    expect(diagnosticCounts(warm.events)).toEqual(diagnosticCounts(cold.events));
    // From the database's cache record, not from listing it again: the warm start stays a stat.
    const restored = diagnosticsOf(warm.events).filter((d) => d.sessionId === BROKEN_COMPOSER);
    expect(restored.map((d) => d.message)).toEqual([expect.stringContaining('(kept in the discovery cache')]);
  });

  it('a restored session replayed because it changed counts its records once, not its restored count plus the replay', async () => {
    const dbPath = fixtureWith('opencode');
    const cold = await runWithCache('opencode', home.env);
    expect(diagnosticCounts(cold.events)['ses_junk:E_SCHEMA']).toBe(4);
    const writer = new BetterSqlite3(dbPath);
    writer.prepare('UPDATE session SET time_updated = ? WHERE id = ?').run(FLAVOUR.opencode.now, 'ses_junk');
    writer.close();
    const warm = await runWithCache('opencode', home.env);
    checkPass(warm, dbPath);
    expect(warm.events.filter((e) => e.type === 'reset').map((e) => 'sessionId' in e && e.sessionId)).toEqual(['ses_junk']);
    expect(diagnosticCounts(warm.events)).toEqual(diagnosticCounts(cold.events));
  });

  it('a monitor started warm counts, when a restored session changes later, only its new records (not its restored count again)', async () => {
    const dbPath = fixtureWith('opencode');
    await runWithCache('opencode', home.env);
    const cache = openDiscoveryCache(home.env);
    const poller = createSqlitePoller({ agent: 'opencode', label: 'OpenCode', dbPath, openReader: FLAVOUR.opencode.openReader, cache });
    try {
      const restored = poller.poll(FLAVOUR.opencode.now);
      expect(restored.filter((e) => e.type === 'reset')).toEqual([]);
      const writer = new BetterSqlite3(dbPath);
      writer.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)').run('prt_j02d', 'msg_j02', 'ses_junk', 1773136301003, 1773136301003, 'still not json');
      writer.prepare('UPDATE session SET time_updated = ? WHERE id = ?').run(FLAVOUR.opencode.now, 'ses_junk');
      writer.close();
      const changed = poller.poll(FLAVOUR.opencode.now);
      expect(changed.filter((e) => e.type === 'reset').map((e) => 'sessionId' in e && e.sessionId)).toEqual(['ses_junk']);
      expect(diagnosticCounts([...restored, ...changed])['ses_junk:E_SCHEMA']).toBe(5);
    } finally {
      poller.close();
      cache.close();
    }
  });
});
