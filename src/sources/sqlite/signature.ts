import { statSync } from 'node:fs';

/**
 * What the files of a SQLite database look like on disk: size and mtime of the database and of
 * its `-wal` and `-journal` (absent ones included as such). Every commit changes at least one of
 * them (a WAL commit appends to `-wal`, a rollback-journal commit rewrites the database), so an
 * equal signature across two runs means nothing was committed in between. Undefined when the
 * database does not exist.
 */
export const databaseSignature = (dbPath: string): string | undefined => {
  const parts: string[] = [];
  for (const suffix of ['', '-wal', '-journal']) {
    const info = statSync(dbPath + suffix, { throwIfNoEntry: false });
    if (!info) {
      if (suffix === '') return undefined;
      parts.push('-');
    } else parts.push(`${info.size}:${info.mtimeMs}:${info.ino}`);
  }
  return parts.join('|');
};

/** The cache key of one session of a database (a database holds many sessions, a file one). */
export const sessionCacheKey = (dbPath: string, sessionId: string): string => `${dbPath}#${sessionId}`;

/** A 32-bit hash of a listing stamp, stored in the session's checkpoint (FNV-1a). */
export const stampHash = (stamp: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < stamp.length; i += 1) hash = Math.imul(hash ^ stamp.charCodeAt(i), 0x01000193);
  return hash >>> 0;
};
