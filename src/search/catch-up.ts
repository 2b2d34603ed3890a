import { rmSync, statSync } from 'node:fs';
import { filter, firstValueFrom, timeout } from 'rxjs';
import type { CliIo } from '../cli/io.js';
import type { Loaded } from '../config/load.js';
import type { AgentKind } from '../core/agents.js';
import { startSourcePipeline } from '../commands/pipeline-setup.js';
import { agentLocations } from '../commands/sessions-locations.js';
import type { Logger } from '../core/contracts.js';
import { openSearchDb, searchCursorPath, searchDbPath } from './index-db.js';
import { createIndexer } from './indexer.js';
import type Database from 'better-sqlite3';

/** How long a catch-up may read before searching what it has. */
const CATCH_UP_WAIT_MS = 120_000;

export const excludedBy = (fragments: readonly string[]) => (cwd: string): boolean => fragments.some((fragment) => fragment !== '' && cwd.includes(fragment));

/**
 * Opens the index and brings it up to date: the sources run once with the search's own
 * discovery cache, so only what was appended since the last search is read (a second search
 * reads nothing new), and every new text block is indexed. `reindex` (or a rebuilt index)
 * starts from nothing.
 */
export const openCaughtUpIndex = async (
  io: CliIo,
  loaded: Loaded,
  agents: readonly AgentKind[],
  options: { readonly reindex: boolean; readonly log: Logger },
): Promise<{ readonly db: Database.Database; readonly indexed: number }> => {
  const cursor = searchCursorPath(io.env);
  if (options.reindex) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${cursor}${suffix}`, { force: true });
  }
  let { db, rebuilt } = openSearchDb(io.env, options.log);
  if (options.reindex && !rebuilt) {
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${searchDbPath(io.env)}${suffix}`, { force: true });
    ({ db, rebuilt } = openSearchDb(io.env, options.log));
  }
  // A fresh index must not trust offsets of what the old one held.
  if (rebuilt) for (const suffix of ['', '-wal', '-shm']) rmSync(`${cursor}${suffix}`, { force: true });
  const indexer = createIndexer(db, { excluded: excludedBy(loaded.config.exclude_cwd_substrings) });
  // The SQLite agents have no byte offsets: their databases replay whole. One whose files have
  // not changed since the last catch-up has nothing new and is not opened at all.
  const stamps = new Map(agents.filter((agent) => DATABASE_AGENTS.has(agent)).map((agent) => [agent, databaseStamp(agentLocations(agent, loaded.config, io.env, io.platform))]));
  const unchanged = (agent: AgentKind): boolean => stamps.has(agent) && readStamp(db, agent) === stamps.get(agent);
  const reading = agents.filter((agent) => !unchanged(agent));
  if (reading.length > 0) {
    const { pipeline, stop } = await startSourcePipeline(io, loaded, { agents: reading, demo: false, watch: false, log: options.log, cacheFile: cursor, tap: indexer.add });
    try {
      await firstValueFrom(pipeline.frame$.pipe(filter((frame) => frame.state.ready), timeout({ first: CATCH_UP_WAIT_MS })));
    } finally {
      await stop();
    }
  }
  const indexed = indexer.flush();
  for (const [agent, stamp] of stamps) if (reading.includes(agent)) writeStamp(db, agent, stamp);
  return { db, indexed };
};

const DATABASE_AGENTS: ReadonlySet<AgentKind> = new Set(['cursor', 'opencode', 'kilo']);

/** Size and mtime of a database and its journals: any commit changes one of them. */
const databaseStamp = (paths: readonly string[]): string =>
  paths
    .flatMap((file) => ['', '-wal', '-journal'].map((suffix) => statSync(`${file}${suffix}`, { throwIfNoEntry: false })))
    .map((info) => (info ? `${info.size}:${info.mtimeMs}` : '-'))
    .join('|');

const readStamp = (db: Database.Database, agent: AgentKind): string | undefined =>
  db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get(`db-stamp:${agent}`)?.value;

const writeStamp = (db: Database.Database, agent: AgentKind, stamp: string): void =>
  void db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(`db-stamp:${agent}`, stamp);
