import { randomBytes } from 'node:crypto';
import { promises as fs, constants } from 'node:fs';
import path from 'node:path';

/**
 * Ensure `dir` exists with `mode`, tightening it when it exists looser (chmod only ever removes
 * bits we do not want; it never widens a stricter directory).
 */
export const ensurePrivateDir = async (dir: string, mode = 0o700): Promise<void> => {
  await fs.mkdir(dir, { recursive: true, mode });
  const stat = await fs.stat(dir);
  if ((stat.mode & 0o777 & ~mode) !== 0) await fs.chmod(dir, stat.mode & 0o777 & mode);
};

/**
 * Replace `file` atomically: write a temp file in the same directory, fsync it, rename over the
 * target, fsync the directory. Readers see the old or the new content, never a torn write.
 */
export const writeFileAtomic = async (file: string, content: string, mode = 0o600): Promise<void> => {
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const handle = await fs.open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    await handle.writeFile(content, 'utf8');
    await handle.chmod(mode);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(tmp, file);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
  const dirHandle = await fs.open(dir, 'r').catch(() => undefined);
  if (dirHandle) {
    await dirHandle.sync().catch(() => undefined);
    await dirHandle.close();
  }
};

/** Tighten an existing file's mode (never widen). */
export const tightenFileMode = async (file: string, mode = 0o600): Promise<void> => {
  const stat = await fs.stat(file);
  if ((stat.mode & 0o777 & ~mode) !== 0) await fs.chmod(file, stat.mode & 0o777 & mode);
};
