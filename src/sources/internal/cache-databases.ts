import type Database from 'better-sqlite3';
import { isAgentKind, type AgentKind } from '../../core/agents.js';
import type { DiagnosticCounts } from '../../core/session.js';
import { TABLE_COLUMNS } from './cache-db.js';
import { decodeDiagnosticCounts, encodeDiagnostics } from './core-codec.js';
import { parseJson } from './skim.js';

/** What a SQLite source recorded after its last complete read of one database. */
interface CachedDatabase {
  readonly agent: AgentKind;
  /** Sizes and mtimes of the database and its journals (see sqlite/signature.ts). */
  readonly signature: string;
  /** `now` of the read (listings that depend on time, like cursor's 48 h, age). */
  readonly listedAt: number;
  /** Session id -> the listing stamp its persisted state was replayed at. */
  readonly stamps: ReadonlyMap<string, string>;
  /**
   * What the listing itself found it could not use (a Cursor composer that is not JSON): counts
   * by code, per session id the diagnostic named ('' for none).
   */
  readonly diagnostics?: ReadonlyMap<string, DiagnosticCounts>;
}

const databaseOf = (agent: string, signature: string, listingText: string): CachedDatabase | undefined => {
  if (!isAgentKind(agent)) return undefined;
  const listing = parseJson(listingText) as { listedAt?: unknown; stamps?: unknown; diagnostics?: unknown } | undefined;
  if (typeof listing?.listedAt !== 'number' || !Array.isArray(listing.stamps)) return undefined;
  const stamps = new Map<string, string>();
  for (const pair of listing.stamps as unknown[]) {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') return undefined;
    stamps.set(pair[0], pair[1]);
  }
  if (listing.diagnostics === undefined) return { agent, signature, listedAt: listing.listedAt, stamps };
  if (!Array.isArray(listing.diagnostics)) return undefined;
  const diagnostics = new Map<string, DiagnosticCounts>();
  for (const entry of listing.diagnostics as unknown[]) {
    const counts = Array.isArray(entry) && typeof entry[0] === 'string' ? decodeDiagnosticCounts(entry[1]) : undefined;
    if (counts === undefined) return undefined;
    diagnostics.set((entry as [string])[0], counts);
  }
  return { agent, signature, listedAt: listing.listedAt, stamps, diagnostics };
};

/** What the discovery cache offers of the `databases` table. */
export interface DatabaseRecords {
  /** The record of a database's last complete read, or undefined. */
  readonly getDatabase: (dbPath: string) => CachedDatabase | undefined;
  /** Records (or, with undefined, forgets) a database's last complete read. Failures are logged, never thrown. */
  readonly putDatabase: (dbPath: string, record: CachedDatabase | undefined) => void;
}

/** The `databases` table: one row per SQLite database a source read, asked for and written one at a time. */
export const openDatabaseRecords = (db: Database.Database, failed: (what: string, error: unknown) => void): DatabaseRecords => {
  const selectDatabase = db.prepare('SELECT agent, signature, listing FROM databases WHERE path = ?').raw();
  const upsertDatabase = db.prepare(
    `INSERT INTO databases (${TABLE_COLUMNS.databases}) VALUES (?, ?, ?, ?)
     ON CONFLICT(path) DO UPDATE SET agent = excluded.agent, signature = excluded.signature, listing = excluded.listing`,
  );
  const removeDatabase = db.prepare('DELETE FROM databases WHERE path = ?');
  return {
    getDatabase: (dbPath) => {
      try {
        const row = selectDatabase.get(dbPath) as [string, string, string] | undefined;
        return row === undefined ? undefined : databaseOf(...row);
      } catch (error) {
        failed('read', error);
        return undefined;
      }
    },
    putDatabase: (dbPath, record) => {
      try {
        if (record === undefined) removeDatabase.run(dbPath);
        else upsertDatabase.run(dbPath, record.agent, record.signature, JSON.stringify({ listedAt: record.listedAt, stamps: [...record.stamps], diagnostics: record.diagnostics && [...record.diagnostics].map(([id, counts]) => [id, encodeDiagnostics(counts) ?? []]) }));
      } catch (error) {
        failed('write', error);
      }
    },
  };
};
