import type Database from 'better-sqlite3';
import type { AgentKind } from '../../core/agents.js';
import type { Logger } from '../../core/contracts.js';
import { TABLE_COLUMNS } from './cache-db.js';

/** A side file's text and the size and mtime it had when read. */
interface CachedText {
  readonly size: number;
  readonly mtimeMs: number;
  readonly text: string;
}

/** The `side_files` table, and what to write to it at the cache's next transaction. */
export interface SideTexts {
  /**
   * What a side file (a session's title or name file) held when last read, with its size and
   * mtime then: a warm start that finds it unchanged reads it from here (side-text.ts). Handed
   * out once (the row stays): a later read of the file is of a change.
   */
  readonly sideText: (file: string) => CachedText | undefined;
  /** Remembers (or, with undefined, forgets) a side file's text; written with the next `write`, or on `close`. */
  readonly rememberSideText: (file: string, agent: AgentKind, text: CachedText | undefined) => void;
  /** Forgets the side files of `agent` nothing asked for since the cache opened (after a first pass: the deleted ones). */
  readonly forgetUnaskedSideTexts: (agent: AgentKind) => void;
  /** True when something waits to be written. */
  readonly pending: () => boolean;
  /** Writes what waits; inside the caller's transaction. */
  readonly flush: () => void;
}

/**
 * Side files: every row at open (a few hundred short texts), each handed out once; what to
 * write waits for the next transaction (a cold start remembers one per kimi or grok session).
 */
export const openSideTexts = (db: Database.Database, log?: Logger): SideTexts => {
  const sides = new Map<string, { agent: string; record: CachedText }>();
  const pendingSides = new Map<string, { agent: AgentKind; record: CachedText | undefined }>();
  try {
    for (const [p, agent, size, mtimeMs, text] of db.prepare(`SELECT ${TABLE_COLUMNS.side_files} FROM side_files`).raw().iterate() as Iterable<[string, string, number, number, string]>) {
      sides.set(p, { agent, record: { size, mtimeMs, text } });
    }
  } catch (error) {
    log?.warn(`discovery cache read failed: ${(error as Error).message}`);
  }
  const upsertSide = db.prepare(
    `INSERT INTO side_files (${TABLE_COLUMNS.side_files}) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(path) DO UPDATE SET agent = excluded.agent, size = excluded.size, mtime_ms = excluded.mtime_ms, text = excluded.text`,
  );
  const removeSide = db.prepare('DELETE FROM side_files WHERE path = ?');
  return {
    pending: () => pendingSides.size > 0,
    flush: () => {
      for (const [p, { agent, record }] of pendingSides) {
        if (record === undefined) removeSide.run(p);
        else upsertSide.run(p, agent, record.size, record.mtimeMs, record.text);
      }
      pendingSides.clear();
    },
    sideText: (p) => {
      const found = sides.get(p);
      sides.delete(p);
      return found?.record;
    },
    rememberSideText: (p, agent, record) => {
      sides.delete(p);
      pendingSides.set(p, { agent, record });
    },
    forgetUnaskedSideTexts: (agent) => {
      // A side file remembered anew has left `sides` already (rememberSideText).
      for (const [p, side] of sides) {
        if (side.agent !== agent) continue;
        sides.delete(p);
        pendingSides.set(p, { agent, record: undefined });
      }
    },
  };
};
