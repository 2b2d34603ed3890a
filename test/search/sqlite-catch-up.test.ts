import { mkdir, utimes } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSearchDb } from '../../src/search/index-db.js';
import { createIndexer } from '../../src/search/indexer.js';
import { searchIndex } from '../../src/search/query.js';
import { catchUpDatabase, databaseSpecs, SQLITE_AGENTS, type DatabaseSpec } from '../../src/search/sqlite-catch-up.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { buildFixtureDb, silentLog } from '../sources/sqlite/helpers.js';
import { DB_PATHS } from './helpers.js';

/**
 * The SQLite agents' catch-up reads from high-water marks: an unchanged database is not opened, a
 * changed one replays only the sessions whose stamp moved.
 */

let home: TempHome | undefined;
const open: Database.Database[] = [];
afterEach(async () => {
  for (const db of open.splice(0)) db.close();
  await home?.cleanup();
  home = undefined;
});

const setup = async () => {
  const t = (home = await makeTempHome('agentwatch-search-sqlite-'));
  for (const agent of SQLITE_AGENTS) {
    const file = DB_PATHS[agent](t.env);
    await mkdir(path.dirname(file), { recursive: true });
    buildFixtureDb(file, agent).close();
  }
  const { db } = openSearchDb(t.env);
  open.push(db);
  const indexer = createIndexer(db, { excluded: () => false });
  const openings: string[] = [];
  const openDatabase = (file: string): Database.Database => {
    openings.push(file);
    return new Database(file, { readonly: true, fileMustExist: true });
  };
  const run = async (agent: (typeof SQLITE_AGENTS)[number]) => catchUpDatabase(db, indexer, await specOfIn(t.env, agent), { openDatabase, now: Date.now(), log: silentLog });
  const find = (word: string) => searchIndex(db, word, { agents: [...SQLITE_AGENTS], limit: 10, excludeCwd: [] });
  return { t, db, run, find, openings };
};

/** The agent's database of the released channel (the first of its databases). */
const specOfIn = async (env: Record<string, string>, agent: (typeof SQLITE_AGENTS)[number]): Promise<DatabaseSpec> => {
  const [spec] = await databaseSpecs(agent, env, 'linux');
  if (!spec) throw new Error(`no database for ${agent}`);
  return spec;
};

describe('SQLite agents caught up from high-water marks', () => {
  it('the first catch-up reads every session (cursor composers of any age); the second opens no database', async () => {
    const { run, find, openings } = await setup();
    for (const agent of SQLITE_AGENTS) expect(await run(agent), agent).toMatchObject({ opened: true });
    expect(openings).toHaveLength(5);
    // The fixture's composers are months old: a monitor lists none of them, the search has them all.
    expect(find('debounce').map((r) => r.agent)).toContain('cursor');
    expect(find('footer').map((r) => r.agent)).toContain('opencode');
    expect(find('OfflineBanner').map((r) => r.agent)).toContain('kilo');
    expect(find('sourdough').map((r) => r.agent)).toContain('crush');
    expect(find('watering').map((r) => r.agent)).toContain('goose');
    for (const agent of SQLITE_AGENTS) expect(await run(agent), agent).toEqual({ opened: false, replayed: 0 });
    expect(openings).toHaveLength(5);
  });

  it('a new message replays its session only; a database touched without a change replays nothing', async () => {
    const { t, run, find } = await setup();
    for (const agent of SQLITE_AGENTS) await run(agent);
    const writer = new Database(DB_PATHS.opencode(t.env));
    open.push(writer);
    writer.prepare(`INSERT INTO message VALUES ('msg_new', 'ses_footer', 1773136020000, 1773136020000, '{"role":"user","time":{"created":1773136020000}}')`).run();
    writer.prepare(`INSERT INTO part VALUES ('prt_new', 'msg_new', 'ses_footer', 1773136020000, 1773136020000, '{"type":"text","text":"and the capybara banner"}')`).run();
    writer.prepare(`UPDATE session SET time_updated = 1773136020000 WHERE id = 'ses_footer'`).run();
    expect(await run('opencode')).toEqual({ opened: true, replayed: 1 });
    expect(find('capybara').map((r) => r.session_id)).toEqual(['ses_footer']);
    // The old messages of the replayed session are not indexed twice.
    expect(find('footer').find((r) => r.session_id === 'ses_footer')?.snippets.length).toBeLessThanOrEqual(3);

    const kilo = DB_PATHS.kilo(t.env);
    const later = new Date(Date.now() + 60_000);
    await utimes(kilo, later, later);
    expect(await run('kilo')).toEqual({ opened: true, replayed: 0 });
  });

  it('a database that cannot be read is said and tried again next time, its marks unmoved', async () => {
    const { t, db, run } = await setup();
    const file = DB_PATHS.kilo(t.env);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, 'not a database at all, just text long enough to be read as a header............');
    const warnings: string[] = [];
    const indexer = createIndexer(db, { excluded: () => false });
    const result = await catchUpDatabase(db, indexer, await specOfIn(t.env, 'kilo'), { now: Date.now(), log: { ...silentLog, warn: (m) => warnings.push(m) } });
    expect(result).toEqual({ opened: true, replayed: 0 });
    expect(warnings.join('\n')).toMatch(/kilo database .* could not be read/);
    expect(db.prepare(`SELECT count(*) FROM db_files WHERE agent = 'kilo'`).pluck().get()).toBe(0);
    expect((await run('opencode')).opened).toBe(true);
  });
});
