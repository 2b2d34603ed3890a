import { promises as fs, constants } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

export interface LockOptions {
  /** Give up after this long (ms). */
  readonly timeoutMs?: number;
  /** A lock older than this whose owner is gone is taken over. */
  readonly staleMs?: number;
}

class LockTimeoutError extends Error {
  readonly code = 'E_LOCK_TIMEOUT';
  constructor(readonly lockPath: string) {
    super(`could not lock ${lockPath}: another agentwatch process holds it (delete the file if no agentwatch is running)`);
  }
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** True when the lock's owner is dead, or the lock is older than `staleMs`. */
const isStale = async (lockPath: string, staleMs: number): Promise<boolean> => {
  try {
    const [content, stat] = await Promise.all([fs.readFile(lockPath, 'utf8'), fs.stat(lockPath)]);
    const pid = Number.parseInt(content, 10);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) return true;
    return Date.now() - stat.mtimeMs > staleMs;
  } catch {
    // Vanished between our attempt and the check, or unreadable: try again.
    return false;
  }
};

/**
 * Run `fn` while holding an exclusive lock file (O_EXCL create), across processes. Used for every
 * read-modify-write of the config directory, so two agentwatch processes never lose an update.
 */
export const withFileLock = async <T>(lockPath: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> => {
  const { timeoutMs = 10_000, staleMs = 30_000 } = options;
  const deadline = Date.now() + timeoutMs;
  let wait = 2;
  for (;;) {
    try {
      const handle = await fs.open(lockPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (await isStale(lockPath, staleMs)) {
        await fs.rm(lockPath, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new LockTimeoutError(lockPath);
      await delay(wait);
      wait = Math.min(wait * 2, 50);
    }
  }
  try {
    return await fn();
  } finally {
    await fs.rm(lockPath, { force: true });
  }
};
