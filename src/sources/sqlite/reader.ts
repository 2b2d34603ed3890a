import type { Database } from 'better-sqlite3';
import type { SessionEvent } from '../../core/session.js';

/** One listing of the sessions a database holds. */
export interface SessionListing {
  /** Session id -> a stamp that changes whenever anything the replay reads has changed. */
  readonly stamps: ReadonlyMap<string, string>;
  /** Records that could not be used while listing (deduplicated by the poller). */
  readonly diagnostics: readonly SessionEvent[];
  /**
   * Session id -> the newest activity (ms) the listing knows of, where the reader knows one: the
   * poller replays the newest sessions first, and a one-shot window leaves the older ones unread.
   */
  readonly activeAt?: ReadonlyMap<string, number>;
}

/**
 * The agent-specific half of a SQLite source, bound to one open connection (prepared statements
 * live as long as the connection). Throws on database problems; bad records become diagnostics.
 */
export interface DbReader {
  readonly list: (now: number) => SessionListing;
  /** The full event replay of one session, without the leading `reset` (the poller adds it). */
  readonly load: (sessionId: string) => readonly SessionEvent[];
}

/** Probes the schema (throwing DbSchemaError when unusable) and prepares the statements. */
export type OpenReader = (db: Database, dbPath: string) => DbReader;
