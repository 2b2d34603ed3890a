import { cp, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { isAgentKind } from '../../src/core/agents.js';
import type { SearchResult } from '../../src/search/query.js';
import { cursorDbPath } from '../../src/sources/cursor/paths.js';
import { gooseDbPath } from '../../src/sources/goose/paths.js';
import { kiloDbPath } from '../../src/sources/kilo/paths.js';
import { opencodeDbPath } from '../../src/sources/opencode/paths.js';
import { runCli } from '../helpers/cli.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { buildFixtureDb, crushFixtureDbPath, type SqliteFixture } from '../sources/sqlite/helpers.js';

/** The search tests' world: every agent's fixture installed in a temp HOME, the CLI run in it. */
export const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));

export const DB_PATHS: Readonly<Record<SqliteFixture, (env: Record<string, string>) => string>> = {
  opencode: (env) => opencodeDbPath(env),
  kilo: (env) => kiloDbPath(env),
  cursor: (env) => cursorDbPath(env, 'linux'),
  crush: (env) => crushFixtureDbPath(env),
  goose: (env) => gooseDbPath(env, 'linux'),
};

/** A temp HOME holding the fixtures of every agent (the SQLite ones built into real databases). */
export const installAll = async (prefix = 'agentwatch-search-'): Promise<TempHome> => {
  const home = await makeTempHome(prefix);
  for (const name of await readdir(FIXTURES)) {
    if (!isAgentKind(name)) continue;
    if (name in DB_PATHS) {
      const file = DB_PATHS[name as SqliteFixture](home.env);
      await mkdir(path.dirname(file), { recursive: true });
      buildFixtureDb(file, name as SqliteFixture).close();
    } else await cp(path.join(FIXTURES, name), home.home, { recursive: true });
  }
  return home;
};

/** Cursor lists composers active in the last 48 h: bring the fixture's up to now (for `sessions`). */
export const freshenCursor = (t: TempHome): void => {
  const db = new Database(cursorDbPath(t.env, 'linux'));
  try {
    const rows = db.prepare(`SELECT key, CAST(value AS TEXT) AS value FROM cursorDiskKV WHERE key LIKE 'composerData:%'`).all() as { key: string; value: string }[];
    for (const row of rows) {
      try {
        const composer = JSON.parse(row.value) as Record<string, unknown>;
        db.prepare('UPDATE cursorDiskKV SET value = ? WHERE key = ?').run(JSON.stringify({ ...composer, lastUpdatedAt: Date.now() }), row.key);
      } catch {
        // the fixture's deliberately broken composer stays broken
      }
    }
  } finally {
    db.close();
  }
};

export const writeConfig = async (t: TempHome, config: Record<string, unknown>): Promise<void> => {
  const file = path.join(t.env.XDG_CONFIG_HOME ?? '', 'agentwatch', 'config.json');
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(config));
};

/** `agentwatch search ARGS` in `t`; `results` parsed when `--json` succeeded. */
export const search = async (t: TempHome, args: string[], extraEnv: Record<string, string> = {}) => {
  const run = await runCli(['search', ...args], { env: { ...t.env, ...extraEnv }, timeoutMs: 60_000 });
  return { ...run, results: run.code === 0 && args.includes('--json') ? (JSON.parse(run.stdout) as SearchResult[]) : [] };
};
