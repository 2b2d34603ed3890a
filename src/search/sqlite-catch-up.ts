import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Logger } from '../core/contracts.js';
import { nextTurn } from '../util/next-turn.js';
import type { Env } from '../config/paths.js';
import { agentSearchDatabases, type SqliteAgent } from '../sources/agents.js';
import type { OpenReader } from '../sources/sqlite/reader.js';
import { initialFoldState, reduceSessions } from '../streams/sessions-reducer.js';
import type { Indexer } from './indexer.js';

/**
 * The one-shot catch-up of the SQLite agents, through their sources' own readers (the same
 * listing and replay a running monitor polls with; each agent's `search.ts` names them). High-water
 * marks, kept in the index: the database files' size and mtime (unchanged: not even opened), and
 * per session the reader's stamp (only sessions whose stamp moved are replayed). A replayed session's old messages
 * are skipped by the indexer's hashes.
 */
export { isSqliteAgent, SQLITE_AGENTS, type SqliteAgent } from '../sources/agents.js';

export interface DatabaseSpec {
  readonly agent: SqliteAgent;
  readonly dbPath: string;
  readonly openReader: OpenReader;
}

/** The databases of a SQLite agent (OpenCode and Kilo keep one per release channel, Crush one per project). */
export const databaseSpecs = async (agent: SqliteAgent, env: Env, platform: NodeJS.Platform): Promise<DatabaseSpec[]> =>
  (await agentSearchDatabases(agent, env, platform)).map((db) => ({ agent, ...db }));

/**
 * The files whose change can change what the database holds (WAL mode writes the -wal first, a
 * rollback journal the file itself). An empty journal counts as none: opening a WAL database read-only (as this catch-up does) leaves one.
 */
const fileStamp = (dbPath: string): string | undefined => {
  const main = statSync(dbPath, { throwIfNoEntry: false });
  if (!main) return undefined;
  const journals = ['-wal', '-journal'].map((suffix) => statSync(`${dbPath}${suffix}`, { throwIfNoEntry: false }));
  return [`${main.size}:${main.mtimeMs}:${main.ino}`, ...journals.map((j) => (j && j.size > 0 ? `${j.size}:${j.mtimeMs}` : '-'))].join('|');
};

export interface DatabaseCatchUp {
  /** False when the files had not changed since the last catch-up (the database was not opened). */
  readonly opened: boolean;
  /** Sessions replayed (their stamp moved). */
  readonly replayed: number;
}

export interface CatchUpDeps {
  /** Opens the agent's database read-only (tests count the openings). */
  readonly openDatabase?: (file: string) => Database.Database;
  readonly now: number;
  readonly log: Logger;
}

const openReadOnly = (file: string): Database.Database => new Database(file, { readonly: true, fileMustExist: true, timeout: 2_000 });

/** Events replayed between two yields to the event loop (a running monitor keeps answering meanwhile). */
const EVENTS_PER_SLICE = 5_000;

/**
 * Brings the index up to date with one database; a locked or broken database is said once and
 * retried next time. A session is replayed after the listing that stamped it, so what is read is
 * at least as new as its stamp (a change in between is replayed again next time, never lost).
 */
export const catchUpDatabase = async (index: Database.Database, indexer: Indexer, spec: DatabaseSpec, deps: CatchUpDeps): Promise<DatabaseCatchUp> => {
  const stamp = fileStamp(spec.dbPath);
  if (stamp === undefined) return { opened: false, replayed: 0 };
  const known = index.prepare<[string], { path: string; stat: string }>('SELECT path, stat FROM db_files WHERE agent = ?').get(spec.agent);
  if (known?.path === spec.dbPath && known.stat === stamp) return { opened: false, replayed: 0 };
  const marks = new Map(index.prepare<[string], { session_id: string; stamp: string }>('SELECT session_id, stamp FROM db_marks WHERE agent = ?').all(spec.agent).map((r) => [r.session_id, r.stamp]));
  const moved = new Map<string, string>();
  let source: Database.Database | undefined;
  try {
    source = (deps.openDatabase ?? openReadOnly)(spec.dbPath);
    const reader = spec.openReader(source, spec.dbPath);
    const listing = reader.list(deps.now);
    let events = 0;
    for (const [sessionId, sessionStamp] of listing.stamps) {
      if (marks.get(sessionId) === sessionStamp) continue;
      const replayed = reader.load(sessionId);
      for (const event of replayed) indexer.add(event);
      // Folded as the monitor and `agentwatch sessions` fold them: the facts they show (last activity).
      for (const session of reduceSessions(initialFoldState([]), replayed).state.sessions.values()) indexer.observe(session);
      events += replayed.length;
      moved.set(sessionId, sessionStamp);
      if (events >= EVENTS_PER_SLICE) {
        events = 0;
        await nextTurn();
      }
    }
  } catch (error) {
    deps.log.warn(`search: ${spec.agent} database ${spec.dbPath} could not be read (${(error as Error).message}); its new messages are indexed next time`);
    return { opened: true, replayed: 0 };
  } finally {
    source?.close();
  }
  // The marks move only together with what they stand for.
  index.transaction(() => {
    indexer.flush();
    const upsert = index.prepare('INSERT INTO db_marks (agent, session_id, stamp) VALUES (?, ?, ?) ON CONFLICT(agent, session_id) DO UPDATE SET stamp = excluded.stamp');
    for (const [sessionId, sessionStamp] of moved) upsert.run(spec.agent, sessionId, sessionStamp);
    index.prepare('INSERT INTO db_files (agent, path, stat) VALUES (?, ?, ?) ON CONFLICT(agent) DO UPDATE SET path = excluded.path, stat = excluded.stat').run(spec.agent, spec.dbPath, stamp);
  })();
  return { opened: true, replayed: moved.size };
};
