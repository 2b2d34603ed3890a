import { mkdirSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from '../../../src/core/session.js';
import { openDiscoveryCache } from '../../../src/sources/internal/cache.js';
import { opencode } from '../../../src/sources/opencode/index.js';
import { opencodeDbPath } from '../../../src/sources/opencode/paths.js';
import { foldById, makeCtx } from '../../helpers/source-harness.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';
import { buildFixtureDb, passWithCache } from './helpers.js';


/** Diagnostics by session and code, as the fold counts them (an event may stand for several). */
const countsOf = (events: readonly SessionEvent[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const e of events) if (e.type === 'diagnostic') counts[`${e.sessionId}:${e.code}`] = (counts[`${e.sessionId}:${e.code}`] ?? 0) + (e.count ?? 1);
  return counts;
};

const typesOf = (events: readonly SessionEvent[]): string[] => [...new Set(events.map((e) => e.type))].sort();
const withoutCheckpoints = (states: Map<string, unknown>): Map<string, unknown> =>
  new Map([...states].map(([id, s]) => [id, { ...(s as object), checkpoint: null }]));

describe('SQLite warm start from the discovery cache (opencode, real database files)', () => {
  let home: TempHome;
  let dbPath: string;
  beforeEach(async () => {
    home = await makeTempHome('agentwatch-sqlite-warm-');
    dbPath = opencodeDbPath(home.env);
    mkdirSync(path.dirname(dbPath), { recursive: true });
    buildFixtureDb(dbPath, 'opencode').close();
  });
  afterEach(() => home.cleanup());

  it('an unchanged database is restored without a query and folds to the cold state', async () => {
    const ctx = makeCtx(home.env);
    const cold = await passWithCache(opencode, ctx);
    expect(cold.filter((e) => e.type === 'reset')).toHaveLength(5);

    const warm = await passWithCache(opencode, ctx);
    // Only restores (with their diagnostics' counts) and the ready: no listing, no replay.
    expect(typesOf(warm)).toEqual(['diagnostic', 'ready', 'restore']);
    expect(warm.filter((e) => e.type === 'restore')).toHaveLength(5);
    expect(foldById(warm)).toEqual(foldById(cold));
  });

  it('a one-shot window replays only the sessions active since it began; the next full pass reads the rest', async () => {
    const ctx = makeCtx(home.env);
    const resets = (events: readonly SessionEvent[]): string[] => events.flatMap((e) => (e.type === 'reset' ? [e.sessionId] : []));
    // ses_compact and ses_junk were last updated after this time, the three others before.
    const windowed = await passWithCache(opencode, { ...ctx, readSince: 1_773_136_150_000 });
    expect(resets(windowed)).toEqual(['ses_junk', 'ses_compact']);
    expect(windowed.at(-1)).toEqual({ type: 'ready', agent: 'opencode' });
    // The windowed read is not recorded as a complete one: nothing is taken for read that was not.
    const full = await passWithCache(opencode, ctx);
    expect(resets(full).sort()).toEqual(['ses_compact', 'ses_explore', 'ses_footer', 'ses_junk', 'ses_tests']);
    const warm = await passWithCache(opencode, ctx);
    expect(typesOf(warm)).toEqual(['diagnostic', 'ready', 'restore']);
    expect(foldById(warm)).toEqual(foldById(full));
  });

  it('a warm start counts the diagnostics of the sessions it restores, as the cold start did, without a query', async () => {
    const ctx = makeCtx(home.env);
    const cold = await passWithCache(opencode, ctx);
    // The fixture's junk session: parts that are not JSON or not of the schema.
    expect(countsOf(cold)['ses_junk:E_SCHEMA']).toBeGreaterThan(1);

    const warm = await passWithCache(opencode, ctx);
    expect(typesOf(warm)).toEqual(['diagnostic', 'ready', 'restore']);
    expect(countsOf(warm)).toEqual(countsOf(cold));
    // And once more: a restore keeps the counts in the cache.
    expect(countsOf(await passWithCache(opencode, ctx))).toEqual(countsOf(cold));
  });

  it('a database written while nobody watched: the sessions are restored and only the changed one is replayed', async () => {
    const ctx = makeCtx(home.env);
    const cold = await passWithCache(opencode, ctx);
    const writer = new BetterSqlite3(dbPath);
    writer.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)').run('prt_late', 'msg_f01', 'ses_footer', 1773136013000, 1773136013000, '{"type":"text","text":"and the header too"}');
    writer.prepare('UPDATE session SET time_updated = ? WHERE id = ?').run(1773136013000, 'ses_footer');
    writer.close();

    const warm = await passWithCache(opencode, ctx);
    expect(warm.filter((e) => e.type === 'restore')).toHaveLength(5);
    expect(warm.filter((e) => e.type === 'reset').map((e) => 'sessionId' in e && e.sessionId)).toEqual(['ses_footer']);
    const full = await passWithCache(opencode, makeCtx({ ...home.env, XDG_CACHE_HOME: path.join(home.root, 'other-cache') }));
    expect(withoutCheckpoints(foldById(warm))).toEqual(withoutCheckpoints(foldById(full)));
    expect(countsOf(warm)).toEqual(countsOf(full));
    expect(foldById(warm).get('ses_footer')?.recentMessages).not.toEqual(foldById(cold).get('ses_footer')?.recentMessages);

    // And the read was recorded: the next start restores everything again without a query.
    const third = await passWithCache(opencode, ctx);
    expect(typesOf(third)).toEqual(['diagnostic', 'ready', 'restore']);
    expect(countsOf(third)).toEqual(countsOf(full));
  });

  it('a session deleted while nobody watched is removed, and its cache row with it', async () => {
    const ctx = makeCtx(home.env);
    await passWithCache(opencode, ctx);
    const writer = new BetterSqlite3(dbPath);
    writer.prepare('DELETE FROM part WHERE session_id = ?').run('ses_junk');
    writer.prepare('DELETE FROM message WHERE session_id = ?').run('ses_junk');
    writer.prepare('DELETE FROM session WHERE id = ?').run('ses_junk');
    writer.close();

    const warm = await passWithCache(opencode, ctx);
    expect(warm.filter((e) => e.type === 'removed').map((e) => 'sessionId' in e && e.sessionId)).toEqual(['ses_junk']);
    expect(foldById(warm).has('ses_junk')).toBe(false);
    const cache = openDiscoveryCache(home.env);
    expect(cache.get(`${dbPath}#ses_junk`)).toBeUndefined();
    expect(cache.getDatabase(dbPath)?.stamps.has('ses_junk')).toBe(false);
    cache.close();
  });

  it('a cache row that does not match its recorded stamp restores nothing: the first read is a full one', async () => {
    const ctx = makeCtx(home.env);
    const cold = await passWithCache(opencode, ctx);
    const cache = openDiscoveryCache(home.env);
    const record = cache.getDatabase(dbPath)!;
    cache.putDatabase(dbPath, { ...record, stamps: new Map([...record.stamps].map(([id, stamp]) => [id, id === 'ses_tests' ? `${stamp}x` : stamp])) });
    cache.close();

    const warm = await passWithCache(opencode, ctx);
    expect(warm.filter((e) => e.type === 'restore')).toHaveLength(0);
    expect(warm.filter((e) => e.type === 'reset')).toHaveLength(5);
    expect(foldById(warm)).toEqual(foldById(cold));
  });
});
