import { mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Source } from '../../../src/sources/contracts.js';
import { makeCursorSource } from '../../../src/sources/cursor/index.js';
import { cursorDbPath } from '../../../src/sources/cursor/paths.js';
import { makeKiloSource } from '../../../src/sources/kilo/index.js';
import { kiloDbPath } from '../../../src/sources/kilo/paths.js';
import { makeOpencodeSource } from '../../../src/sources/opencode/index.js';
import { opencodeDbPath } from '../../../src/sources/opencode/paths.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';
import { buildFixtureDb, collect, fixtureSql, makeCtx, ofType, waitFor, type Collected } from './helpers.js';
import { spawnWriter, type RemoteWriter } from './writer.js';

/**
 * Real databases written by a second connection while the real sources poll with a short
 * interval on the real scheduler; every wait is bounded.
 */
const INTERVAL_MS = 25;
let home: TempHome;
let writers: RemoteWriter[] = [];
let running: Collected[] = [];

beforeEach(async () => {
  home = await makeTempHome('aw-sqlite-live-');
  home.env.KILO_DATA_DIR = path.join(home.root, 'kilo-data');
});
afterEach(async () => {
  for (const run of running) run.subscription.unsubscribe();
  for (const writer of writers) await writer.close();
  running = [];
  writers = [];
  await home.cleanup();
});

const start = (source: Source, now?: number): Collected => {
  const run = collect(source, makeCtx(home.env, now === undefined ? {} : { now }));
  running.push(run);
  return run;
};

/** Build the fixture database, then hand it to a writer in another process. */
const build = async (file: string, agent: 'opencode' | 'kilo' | 'cursor', options: { wal?: boolean } = {}): Promise<RemoteWriter> => {
  mkdirSync(path.dirname(file), { recursive: true });
  buildFixtureDb(file, agent, options).close();
  const writer = await spawnWriter(file, { ...options, env: home.env });
  writers.push(writer);
  return writer;
};

/** How many distinct sessions were replayed. */
const replayed = (run: Collected): number => new Set(ofType(run.events, 'reset').map((e) => e.sessionId)).size;

/** Diagnostics about the database itself (the fixtures' junk records are E_SCHEMA). */
const dbDiagnostics = (run: Collected) => ofType(run.events, 'diagnostic').filter((d) => d.code !== 'E_SCHEMA');

const isReady = (run: Collected) => () => run.events.some((e) => e.type === 'ready');
const hasTurn = (run: Collected, text: string) => () => ofType(run.events, 'turn').some((e) => e.text === text);

/** File descriptors of this process open on `file` (Linux /proc): proves a connection was closed. */
const openDescriptors = (file: string): number =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;

/** One commit, as the agent writes a message with its part (a poll may fall between commits). */
const addOpencodeTurn = async (writer: RemoteWriter, sessionId: string, id: string, at: number, text: string): Promise<void> => {
  await writer.exec('BEGIN');
  await writer.run(`INSERT INTO message VALUES (?, ?, ?, ?, ?)`, `msg_${id}`, sessionId, at, at, JSON.stringify({ role: 'user', time: { created: at } }));
  await writer.run(`INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)`, `prt_${id}`, `msg_${id}`, sessionId, at, at, JSON.stringify({ type: 'text', text }));
  await writer.run(`UPDATE session SET time_updated = ? WHERE id = ?`, at, sessionId);
  await writer.exec('COMMIT');
};

describe.each([
  ['opencode', () => makeOpencodeSource({ intervalMs: INTERVAL_MS }), () => opencodeDbPath(home.env), 'ses_tests'],
  ['kilo', () => makeKiloSource({ intervalMs: INTERVAL_MS }), () => kiloDbPath(home.env), 'ses_k_main'],
] as const)('%s: live WAL database', (agent, makeSource, dbPath, sessionId) => {
  it('sees rows committed by another connection, removes deleted sessions, and closes its connection on unsubscribe', async () => {
    const file = dbPath();
    const writer = await build(file, agent);
    const run = start(makeSource());
    await waitFor(isReady(run), 'ready');
    expect(openDescriptors(file)).toBe(1);
    const junk = ofType(run.events, 'diagnostic').length;
    const before = run.events.length;

    await addOpencodeTurn(writer, sessionId, 'live1', 1773140000000, 'and now the lint step');
    await waitFor(hasTurn(run, 'and now the lint step'), 'the new turn');
    const after = run.events.slice(before);
    expect(after[0]).toEqual({ type: 'reset', agent, sessionId });
    expect(ofType(after, 'reset')).toHaveLength(1);

    await writer.run(`DELETE FROM part WHERE session_id = ?`, sessionId);
    await writer.run(`DELETE FROM message WHERE session_id = ?`, sessionId);
    await writer.run(`DELETE FROM session WHERE id = ?`, sessionId);
    await waitFor(() => ofType(run.events, 'removed').some((e) => e.sessionId === sessionId), 'removed');

    // Junk records of the fixture were reported once, however often sessions were replayed.
    expect(ofType(run.events, 'diagnostic')).toHaveLength(junk);
    expect(dbDiagnostics(run)).toEqual([]);
    expect(run.errors).toEqual([]);
    run.subscription.unsubscribe();
    expect(openDescriptors(file)).toBe(0);
  });
});

describe('every committed change is read (the database and its WAL are watched)', () => {
  it('19 changes in a row, each seen by the source on its own, with the periodic poll 10 minutes away', async () => {
    const file = opencodeDbPath(home.env);
    const writer = await build(file, 'opencode');
    // The periodic poll is the fallback only: it would not come within this test.
    const run = start(makeOpencodeSource({ intervalMs: 600_000 }));
    await waitFor(isReady(run), 'ready');
    let seen = 0;
    for (let n = 1; n <= 19; n += 1) {
      await addOpencodeTurn(writer, 'ses_tests', `rapid${n}`, 1773140000000 + n * 1_000, `change ${n}`);
      await waitFor(hasTurn(run, `change ${n}`), `change ${n}`);
      seen += 1;
    }
    expect(seen).toBe(19);
    expect(dbDiagnostics(run)).toEqual([]);
    expect(run.errors).toEqual([]);
  });
});

describe('cursor: live WAL database', () => {
  it('sees a new bubble committed by Cursor and closes its connection on unsubscribe', async () => {
    const file = cursorDbPath(home.env, 'linux');
    const writer = await build(file, 'cursor');
    const run = start(makeCursorSource({ intervalMs: INTERVAL_MS }), 1773137700000);
    await waitFor(isReady(run), 'ready');
    const composerId = '2b7d0c11-aaaa-4bbb-8ccc-000000000002';
    const bubble = { bubbleId: 'c-3', type: 2, text: 'All 42 e2e tests pass.', createdAt: '2026-03-10T10:12:30.000Z' };
    await writer.run(`INSERT INTO cursorDiskKV VALUES (?, ?)`, `bubbleId:${composerId}:c-3`, Buffer.from(JSON.stringify(bubble)));
    const composer = {
      composerId, name: 'Run the e2e suite', createdAt: 1773137500000, lastUpdatedAt: 1773137550000, status: 'completed',
      fullConversationHeadersOnly: [{ bubbleId: 'c-1', type: 1 }, { bubbleId: 'c-2', type: 2 }, { bubbleId: 'c-3', type: 2 }],
    };
    await writer.run(`INSERT INTO cursorDiskKV VALUES (?, ?)`, `composerData:${composerId}`, JSON.stringify(composer));
    await waitFor(hasTurn(run, 'All 42 e2e tests pass.'), 'the new bubble');
    // Only the fixture's two junk records were reported, once.
    expect(ofType(run.events, 'diagnostic')).toHaveLength(2);
    expect(run.errors).toEqual([]);
    expect(openDescriptors(file)).toBe(1);
    run.subscription.unsubscribe();
    expect(openDescriptors(file)).toBe(0);
  });
});

describe('databases that are missing, locked, corrupt or of another schema', () => {
  it('a database that does not exist yet is no error; it is picked up when it appears', async () => {
    const run = start(makeOpencodeSource({ intervalMs: INTERVAL_MS }));
    await waitFor(isReady(run), 'ready');
    await build(opencodeDbPath(home.env), 'opencode');
    await waitFor(() => replayed(run) === 5, 'the sessions');
    expect(dbDiagnostics(run)).toEqual([]);
  });

  it('a locked database is E_DB_LOCKED once while locked, then read on a later poll', async () => {
    const file = opencodeDbPath(home.env);
    const writer = await build(file, 'opencode', { wal: false });
    await writer.exec('BEGIN EXCLUSIVE');
    await writer.exec(`UPDATE session SET title = 'Renamed' WHERE id = 'ses_tests'`);
    // ctx.now is read once per poll: count polls to let several pass while the lock is held.
    let polls = 0;
    const ctx = { ...makeCtx(home.env), now: () => (polls += 1) };
    const run = collect(makeOpencodeSource({ intervalMs: INTERVAL_MS }), ctx);
    running.push(run);
    await waitFor(() => polls >= 5, 'five polls');
    expect(dbDiagnostics(run)).toEqual([
      expect.objectContaining({ agent: 'opencode', code: 'E_DB_LOCKED', message: expect.stringContaining('OpenCode: database') }),
    ]);
    await writer.exec('COMMIT');
    await waitFor(() => replayed(run) === 5, 'the sessions after the lock');
    expect(dbDiagnostics(run)).toHaveLength(1);
    expect(ofType(run.events, 'meta').find((e) => e.sessionId === 'ses_tests')?.patch.agentName).toBe('Renamed');
  });

  it('a corrupt database is E_DB_CORRUPT while the other agents keep flowing; a repaired file is read', async () => {
    const file = opencodeDbPath(home.env);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'this is not a SQLite database\n'.repeat(200));
    await build(kiloDbPath(home.env), 'kilo');
    const broken = start(makeOpencodeSource({ intervalMs: INTERVAL_MS }));
    const healthy = start(makeKiloSource({ intervalMs: INTERVAL_MS }));
    await waitFor(() => isReady(broken)() && isReady(healthy)(), 'both ready');
    expect(dbDiagnostics(broken)).toEqual([expect.objectContaining({ code: 'E_DB_CORRUPT', path: file })]);
    expect(ofType(healthy.events, 'reset')).toHaveLength(4);

    const repaired = path.join(home.root, 'repaired.db');
    new BetterSqlite3(repaired).exec(`${fixtureSql('opencode', 'schema')}${fixtureSql('opencode', 'data')}`).close();
    renameSync(repaired, file);
    await waitFor(() => replayed(broken) === 5, 'the repaired sessions');
    expect(dbDiagnostics(broken)).toHaveLength(1);
  });

  it('a missing table is E_DB_SCHEMA naming it; once the table exists the next poll reads', async () => {
    const file = opencodeDbPath(home.env);
    mkdirSync(path.dirname(file), { recursive: true });
    const writer = await spawnWriter(file, { env: home.env });
    writers.push(writer);
    const schema = fixtureSql('opencode', 'schema');
    await writer.exec(schema.slice(0, schema.indexOf('CREATE TABLE part')));
    const run = start(makeOpencodeSource({ intervalMs: INTERVAL_MS }));
    await waitFor(isReady(run), 'ready');
    expect(ofType(run.events, 'diagnostic')).toEqual([
      expect.objectContaining({ code: 'E_DB_SCHEMA', message: expect.stringContaining('table "part" is missing') }),
    ]);
    await writer.exec(`BEGIN; ${schema.slice(schema.indexOf('CREATE TABLE part'))} ${fixtureSql('opencode', 'data')} COMMIT;`);
    await waitFor(() => replayed(run) === 5, 'the sessions');
  });

  it('a database deleted after it was read removes its sessions', async () => {
    const file = opencodeDbPath(home.env);
    const writer = await build(file, 'opencode', { wal: false });
    const run = start(makeOpencodeSource({ intervalMs: INTERVAL_MS }));
    await waitFor(() => replayed(run) === 5, 'the sessions');
    await writer.close();
    rmSync(file);
    await waitFor(() => ofType(run.events, 'removed').length === 5, 'removed');
    expect(dbDiagnostics(run)).toEqual([]);
  });
});
