/**
 * Faults of the disk under a file agentwatch writes, told apart from damage: a full disk, a
 * read-only or forbidden folder, or a lock held by another process are conditions that pass (the
 * store waits, degrades and retries), never reasons to move a file aside or to stop the monitor.
 */
export type StorageFault = 'full' | 'read-only' | 'denied' | 'busy' | 'io';

const codeOf = (error: unknown): string => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : '';
};

/**
 * The fault `error` reports (a Node `fs` error or a better-sqlite3 `SqliteError`), or undefined for
 * any other error (a damaged file, a bug).
 *
 * @example storageFault(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })) // 'full'
 */
export const storageFault = (error: unknown): StorageFault | undefined => {
  const code = codeOf(error);
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || (code === 'SQLITE_IOERR_WRITE' && /full/i.test((error as Error).message))) return 'full';
  if (code === 'EROFS' || code.startsWith('SQLITE_READONLY')) return 'read-only';
  if (code === 'EACCES' || code === 'EPERM' || code === 'SQLITE_PERM' || code === 'SQLITE_AUTH' || code.startsWith('SQLITE_CANTOPEN')) return 'denied';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || code === 'EBUSY') return 'busy';
  if (code === 'EIO' || code.startsWith('SQLITE_IOERR')) return 'io';
  return undefined;
};

const WORDS: Readonly<Record<StorageFault, string>> = {
  full: 'the disk is full',
  'read-only': 'the folder is read-only',
  denied: 'permission denied',
  busy: 'another process holds its lock',
  io: 'the disk reports an I/O error',
};

/** The fault in a few words, for a line a user reads. */
export const describeFault = (fault: StorageFault): string => WORDS[fault];
