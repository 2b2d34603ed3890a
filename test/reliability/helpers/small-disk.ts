import { execFileSync } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface SmallDisk {
  readonly dir: string;
  /** Writes a filler file until the disk says it is full. */
  readonly fill: () => void;
  /** Removes the filler: the disk has room again. */
  readonly free: () => void;
  /** Remounts it read-only (`ro`) or writable again (`rw`). */
  readonly remount: (mode: 'ro' | 'rw') => void;
  readonly unmount: () => void;
}

/**
 * A real, small file system (a tmpfs of `size`), where the test may mount one (root, with mount
 * rights); undefined elsewhere, and the case falls back to the fault-injecting wrapper.
 */
export const mountSmallDisk = (size = '2m'): SmallDisk | undefined => {
  if (process.getuid?.() !== 0) return undefined;
  const dir = mkdtempSync(path.join(tmpdir(), 'agentwatch-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill: () => {
      const fd = openSync(filler, 'a');
      const chunk = Buffer.alloc(4096, 1);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
    },
    free: () => rmSync(filler, { force: true }),
    remount: (mode) => execFileSync('mount', ['-o', `remount,${mode}`, dir], { stdio: 'ignore' }),
    unmount: () => {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
