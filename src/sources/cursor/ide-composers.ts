import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/**
 * Whether the IDE's `state.vscdb` holds a composer of this id (`composerData:<id>`): such a chat
 * is read from there, and its transcript would count it twice. False when the database cannot be
 * read. Asked once per transcript, the answer kept: the IDE writes the composer when the chat
 * begins, before the transcript's first line.
 */
export const createIdeComposerCheck = (dbPath: string): ((id: string) => boolean) => {
  const known = new Map<string, boolean>();
  return (id) => {
    const cached = known.get(id);
    if (cached !== undefined) return cached;
    let found = false;
    try {
      const Driver = require('better-sqlite3') as typeof BetterSqlite3;
      const db = new Driver(dbPath, { readonly: true, fileMustExist: true, timeout: 50 });
      try {
        found = db.prepare('SELECT 1 FROM cursorDiskKV WHERE key = ?').get(`composerData:${id}`) !== undefined;
      } finally {
        db.close();
      }
    } catch {
      found = false;
    }
    known.set(id, found);
    return found;
  };
};
