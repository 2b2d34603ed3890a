import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionsState } from '../../../src/core/contracts.js';
import type { SessionState } from '../../../src/core/session.js';
import { CACHE_SCHEMA_VERSION, discoveryCachePath, openDiscoveryCache, type DiscoveryCache } from '../../../src/sources/internal/cache.js';
import { createPersister, persistCache } from '../../../src/sources/internal/persist-cache.js';
import { emptySession } from '../../../src/streams/empty-session.js';
import { rx } from '../../helpers/marbles.js';
import { cachedFileOf } from '../../helpers/source-harness.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';

const stateAt = (sessionId: string, file: string, offset: number): SessionState => ({
  ...emptySession('claude', sessionId),
  path: file,
  userMessages: offset,
  checkpoint: { path: file, offset, size: offset, mtimeMs: 1000 + offset },
});

describe('discovery cache', () => {
  let home: TempHome;
  let warnings: string[];
  const log = { info: () => undefined, warn: (m: string) => void warnings.push(m), error: () => undefined };
  beforeEach(async () => {
    home = await makeTempHome('agentwatch-cache-');
    warnings = [];
  });
  afterEach(() => home.cleanup());

  it('lives under XDG_CACHE_HOME/agentwatch with 0700/0600 modes, versioned, and round-trips entries', async () => {
    const cache = openDiscoveryCache(home.env, log);
    const file = discoveryCachePath(home.env);
    expect(file).toBe(path.join(home.env.XDG_CACHE_HOME!, 'agentwatch', 'discovery.sqlite'));
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const state = stateAt('s1', '/t/s1.jsonl', 42);
    cache.write([cachedFileOf(state)], []);
    expect(cache.get('/t/s1.jsonl')).toEqual(cachedFileOf(state));
    cache.write([], ['/t/s1.jsonl']);
    expect(cache.get('/t/s1.jsonl')).toBeUndefined();
    cache.close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(CACHE_SCHEMA_VERSION);
    db.close();
    expect(warnings).toEqual([]);
  });

  it('takes a fresh cache\'s first write straight into the file, then shares it in WAL mode', async () => {
    const file = discoveryCachePath(home.env);
    const journalMode = (): unknown => {
      const db = new Database(file, { readonly: true });
      try {
        return db.pragma('journal_mode', { simple: true });
      } finally {
        db.close();
      }
    };
    const cache = openDiscoveryCache(home.env, log);
    expect(journalMode()).toBe('delete');
    const state = stateAt('s1', '/t/s1.jsonl', 42);
    cache.write([cachedFileOf(state)], []);
    expect(journalMode()).toBe('wal');
    // A second process reads what the first wrote while the first still holds the file.
    const other = openDiscoveryCache(home.env, log);
    expect(other.get('/t/s1.jsonl')).toEqual(cachedFileOf(state));
    other.close();
    cache.close();
    const again = openDiscoveryCache(home.env, log);
    expect(journalMode()).toBe('wal');
    expect(again.get('/t/s1.jsonl')).toEqual(cachedFileOf(state));
    again.close();
    expect(warnings).toEqual([]);
  });

  it.each([
    ['not SQLite at all', async (file: string) => writeFile(file, 'this is not a database, just text that happens to be here')],
    ['a foreign SQLite database', async (file: string) => foreign(file, 0)],
    ['our table at another schema version', async (file: string) => foreign(file, 99)],
    ['tables of another layout at our schema version', async (file: string) => foreign(file, CACHE_SCHEMA_VERSION)],
  ])('discards and rebuilds %s, never failing', async (_what, plant) => {
    const file = discoveryCachePath(home.env);
    await mkdir(path.dirname(file), { recursive: true });
    await plant(file);
    const cache = openDiscoveryCache(home.env, log);
    expect(cache.file).toBe(file);
    cache.write([cachedFileOf(stateAt('s1', '/t/a.jsonl', 3))], []);
    expect(cache.get('/t/a.jsonl')?.offset).toBe(3);
    cache.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/unusable.*rebuilding/);
  });

  it('rebuilds a cache an earlier version wrote without a warning (expected after an upgrade), saying so at info level', async () => {
    const file = discoveryCachePath(home.env);
    await mkdir(path.dirname(file), { recursive: true });
    foreign(file, CACHE_SCHEMA_VERSION - 1);
    const infos: string[] = [];
    const cache = openDiscoveryCache(home.env, { ...log, info: (m: string) => void infos.push(m) });
    expect(cache.file).toBe(file);
    cache.write([cachedFileOf(stateAt('s1', '/t/a.jsonl', 3))], []);
    expect(cache.get('/t/a.jsonl')?.offset).toBe(3);
    cache.close();
    expect(warnings).toEqual([]);
    expect(infos).toHaveLength(1);
    expect(infos[0]).toMatch(/from an earlier version.*rebuilding/);
  });

  it('drops a row whose core was damaged or edited (checksum), or whose agent or session id do not match', () => {
    const cache = openDiscoveryCache(home.env, log);
    cache.write(['a', 'b', 'c', 'd'].map((id) => cachedFileOf(stateAt(id, `/t/${id}.jsonl`, 3))), []);
    cache.close();
    const db = new Database(discoveryCachePath(home.env));
    // One count edited, its checksum left as it was.
    const core = JSON.parse(db.prepare(`SELECT state FROM files WHERE path = '/t/a.jsonl'`).pluck().get() as string) as unknown[];
    expect(core[16]).toBe(3);
    core[16] = 4;
    db.prepare(`UPDATE files SET state = ? WHERE path = '/t/a.jsonl'`).run(JSON.stringify(core));
    db.prepare(`UPDATE files SET agent = 'nobody' WHERE path = '/t/b.jsonl'`).run();
    db.prepare(`UPDATE files SET session_id = 'other' WHERE path = '/t/c.jsonl'`).run();
    db.close();
    const reopened = openDiscoveryCache(home.env, log);
    expect(['a', 'b', 'c', 'd'].map((id) => reopened.get(`/t/${id}.jsonl`)?.state.userMessages)).toEqual([undefined, undefined, undefined, 3]);
    reopened.close();
  });

  it('restores the detail part (usage per message, recent tools and messages) only when read, and reads a damaged or missing one as empty', () => {
    const full: SessionState = {
      ...stateAt('d', '/t/d.jsonl', 9),
      usageByMessage: { m1: { input: 1, output: 2, cacheCreation: 0, cacheRead: 3 } },
      recentTools: [{ name: 'Read', at: 5, callId: 'c1', done: true }],
      recentMessages: [{ role: 'user', text: 'hello', at: 4 }],
    };
    const cache = openDiscoveryCache(home.env, log);
    cache.write([cachedFileOf(full), cachedFileOf(stateAt('e', '/t/e.jsonl', 2)), cachedFileOf({ ...stateAt('f', '/t/f.jsonl', 9), usageByMessage: full.usageByMessage, recentTools: full.recentTools, recentMessages: full.recentMessages })], []);
    cache.close();
    const db = new Database(discoveryCachePath(home.env));
    db.prepare('UPDATE details SET detail = ? WHERE path = ?').run(Buffer.from('{"recentTools": "not a list"'), '/t/e.jsonl');
    db.prepare('DELETE FROM details WHERE path = ?').run('/t/f.jsonl');
    db.close();
    const reopened = openDiscoveryCache(home.env, log);
    const restored = reopened.get('/t/d.jsonl')!.state;
    const descriptor = Object.getOwnPropertyDescriptor(restored, 'recentMessages');
    expect(descriptor?.get).toBeTypeOf('function');
    expect(restored).toEqual(full);
    expect({ ...restored }).toEqual(full);
    const damaged = reopened.get('/t/e.jsonl')!.state;
    expect(damaged.userMessages).toBe(2);
    expect([damaged.recentTools, damaged.recentMessages, damaged.usageByMessage]).toEqual([[], [], {}]);
    const detailless = reopened.get('/t/f.jsonl')!.state;
    expect(detailless.userMessages).toBe(9);
    expect([detailless.recentTools, detailless.recentMessages, detailless.usageByMessage]).toEqual([[], [], {}]);
    reopened.close();
  });

  it('a detail first read after the cache closed (a one-shot command prints after stopping) is still the stored one', () => {
    const full: SessionState = { ...stateAt('d', '/t/d.jsonl', 9), recentMessages: [{ role: 'assistant', text: 'done', at: 4 }] };
    const cache = openDiscoveryCache(home.env, log);
    cache.write([cachedFileOf(full)], []);
    cache.close();
    const reopened = openDiscoveryCache(home.env, log);
    const restored = reopened.get('/t/d.jsonl')!.state;
    reopened.close();
    expect(restored.recentMessages).toEqual(full.recentMessages);
    expect(warnings).toEqual([]);
  });

  it('prefetchDetails reads the unread details of many restored states in one pass (a quarter of the rows or more), and leaves a few to their own lookup', () => {
    const withMessage = (id: string): SessionState => ({ ...stateAt(id, `/t/${id}.jsonl`, 3), recentMessages: [{ role: 'user', text: `prompt of ${id}`, at: 2 }] });
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const cache = openDiscoveryCache(home.env, log);
    cache.write(ids.map((id) => cachedFileOf(withMessage(id))), []);
    cache.close();
    const reopened = openDiscoveryCache(home.env, log);
    const states = ids.map((id) => reopened.get(`/t/${id}.jsonl`)!.state);
    // A detail read before the pass is not read again; a state the cache did not restore is ignored.
    expect(states[0]!.recentMessages).toEqual(withMessage('a').recentMessages);
    // One of eight: below a quarter, so no pass (the details removed below then read as empty).
    reopened.prefetchDetails([states[1]!]);
    reopened.prefetchDetails([states[2]!, states[3]!, withMessage('x')]);
    const other = new Database(discoveryCachePath(home.env));
    other.prepare('DELETE FROM details').run();
    other.close();
    expect(states[1]!.recentMessages).toEqual([]);
    expect(states[2]!.recentMessages).toEqual(withMessage('c').recentMessages);
    expect(states[3]!.recentMessages).toEqual(withMessage('d').recentMessages);
    expect(states[4]!.recentMessages).toEqual([]);
    reopened.close();
    expect(warnings).toEqual([]);
  });

  it('keeps the record of a database read: signature and session stamps, replaced and forgotten', () => {
    const cache = openDiscoveryCache(home.env, log);
    expect(cache.getDatabase('/d/kilo.db')).toBeUndefined();
    cache.putDatabase('/d/kilo.db', { agent: 'kilo', signature: 'db 1 2|wal 3 4', listedAt: 7, stamps: new Map([['s1', 'a'], ['s2', 'b']]) });
    cache.close();
    const reopened = openDiscoveryCache(home.env, log);
    expect(reopened.getDatabase('/d/kilo.db')).toEqual({ agent: 'kilo', signature: 'db 1 2|wal 3 4', listedAt: 7, stamps: new Map([['s1', 'a'], ['s2', 'b']]) });
    reopened.putDatabase('/d/kilo.db', { agent: 'kilo', signature: 'db 1 5', listedAt: 8, stamps: new Map() });
    expect(reopened.getDatabase('/d/kilo.db')?.signature).toBe('db 1 5');
    reopened.putDatabase('/d/kilo.db', undefined);
    expect(reopened.getDatabase('/d/kilo.db')).toBeUndefined();
    reopened.close();
    expect(warnings).toEqual([]);
  });

  it('falls back to an in-memory cache when the cache directory cannot exist', async () => {
    // A plain file where the cache directory should be: even root cannot create the directory.
    await writeFile(path.join(home.home, 'blocked'), 'x');
    const env = { ...home.env, XDG_CACHE_HOME: path.join(home.home, 'blocked') };
    const cache = openDiscoveryCache(env, log);
    expect(cache.file).toBe(':memory:');
    cache.write([cachedFileOf(stateAt('s1', '/t/a.jsonl', 3))], []);
    expect(cache.get('/t/a.jsonl')?.offset).toBe(3);
    cache.close();
    expect(warnings.join('\n')).toMatch(/disabled for this run/);
    expect(await readFile(path.join(home.home, 'blocked'), 'utf8')).toBe('x');
  });
});

const foreign = (file: string, version: number): void => {
  const db = new Database(file);
  db.exec(version === 0 ? 'CREATE TABLE notes (body TEXT)' : `CREATE TABLE files (path TEXT); CREATE TABLE databases (path TEXT); PRAGMA user_version = ${version}`);
  db.close();
};

describe('persistCache (virtual time)', () => {
  let home: TempHome;
  let cache: DiscoveryCache;
  let writes: { at: number; upserts: string[]; deletes: string[] }[];
  let now: () => number;
  beforeEach(async () => {
    home = await makeTempHome('agentwatch-persist-');
    const real = openDiscoveryCache(home.env);
    writes = [];
    cache = {
      ...real,
      write: (upserts, deletes) => {
        writes.push({ at: now(), upserts: upserts.map((u) => `${u.sessionId}@${u.offset}`), deletes: [...deletes] });
        real.write(upserts, deletes);
      },
    };
  });
  afterEach(async () => {
    cache.close();
    await home.cleanup();
  });

  const sessionsState = (...states: SessionState[]): SessionsState => ({
    sessions: new Map(states.map((s) => [`${s.agent}:${s.sessionId}` as const, s])),
    diagnostics: {},
    ready: true,
  });

  it('writes checkpointed states every 5 s in one batch, skips unchanged and in-between states, deletes gone sessions, flushes on teardown', () => {
    const a1 = stateAt('a', '/t/a.jsonl', 10);
    const a2 = stateAt('a', '/t/a.jsonl', 20);
    const aBetween = { ...a2, userMessages: 99, checkpoint: null };
    const b1 = stateAt('b', '/t/b.jsonl', 5);
    const scheduler = rx();
    let stop: (() => void | Promise<void>) | undefined;
    scheduler.run(({ hot }) => {
      now = () => scheduler.now();
      const state$: Observable<SessionsState> = hot('a 999ms b 4999ms c 4999ms d 999ms e', {
        a: sessionsState(a1),
        b: sessionsState(a1, b1),
        c: sessionsState(a2, b1),
        d: sessionsState(aBetween, b1),
        e: sessionsState(aBetween),
      });
      stop = persistCache(state$, cache, scheduler, 5_000);
      scheduler.schedule(() => void stop?.(), 13_000);
    });
    expect(writes).toEqual([
      { at: 5_000, upserts: ['a@10', 'b@5'], deletes: [] },
      { at: 10_000, upserts: ['a@20'], deletes: [] },
      { at: 13_000, upserts: [], deletes: ['/t/b.jsonl'] },
    ]);
    // The row of `a` stays at its last checkpoint: the in-between state is never persisted.
    expect(cache.get('/t/a.jsonl')?.state.userMessages).toBe(20);
    expect(cache.get('/t/b.jsonl')).toBeUndefined();
  });

  it('does not write back a state restored from the cache and left untouched', () => {
    cache.write([cachedFileOf(stateAt('r', '/t/r.jsonl', 7))], []);
    const restored = cache.get('/t/r.jsonl')!.state;
    const touched = { ...restored, userMessages: 8 };
    writes = [];
    const scheduler = rx();
    scheduler.run(({ hot }) => {
      now = () => scheduler.now();
      const stop = persistCache(hot<SessionsState>('a 5s b', { a: sessionsState(restored), b: sessionsState(touched) }), cache, scheduler, 5_000);
      scheduler.schedule(() => void stop(), 8_000);
    });
    expect(writes).toEqual([{ at: 8_000, upserts: ['r@7'], deletes: [] }]);
    expect(cache.get('/t/r.jsonl')?.state.userMessages).toBe(8);
  });

  it('lazyTwins: after writing, pairs each state it wrote with an equal one whose detail stays in the row until read; a twin is not written again', () => {
    const full: SessionState = {
      ...stateAt('t', '/t/t.jsonl', 12),
      cwd: '/w',
      recentTools: [{ name: 'Edit', callId: 'c1', at: 5, done: true }],
      recentMessages: [{ role: 'assistant', text: 'done', at: 6 }],
      usageByMessage: { m1: { input: 1, output: 2, cacheCreation: 0, cacheRead: 0 } },
    };
    const unpersisted = { ...stateAt('u', '/t/u.jsonl', 3), checkpoint: null };
    const scheduler = rx();
    let twins: { from: SessionState; to: SessionState }[] = [];
    scheduler.run(({ hot }) => {
      now = () => scheduler.now();
      const persister = createPersister(hot<SessionsState>('a', { a: sessionsState(full, unpersisted) }), cache, scheduler, 5_000);
      scheduler.schedule(() => {
        twins = persister.lazyTwins();
        writes = [];
        // Its last write: the twins are not written again.
        persister.stop();
      }, 1_000);
    });
    // Written at once (not at 5 s), paired; the state without a checkpoint has no row and no twin.
    expect(twins.map(({ from }) => from)).toEqual([full]);
    const twin = twins[0]!.to;
    expect(twin).not.toBe(full);
    expect(cache.isStored(twin)).toBe(true);
    expect(writes).toEqual([]);
    // Equal in everything, the detail read from the row when first asked.
    expect({ ...twin }).toEqual(full);
  });
});
