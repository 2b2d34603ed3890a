import { randomBytes } from 'node:crypto';
import { promises as fs, constants } from 'node:fs';
import path from 'node:path';

/**
 * Ensure `dir` exists with `mode`, tightening it when it exists looser (chmod only ever removes
 * bits we do not want; it never widens a stricter directory).
 */
export const ensurePrivateDir = async (dir: string, mode = 0o700): Promise<void> => {
  await fs.mkdir(dir, { recursive: true, mode }).catch(async (error: NodeJS.ErrnoException) => {
    // On a read-only file system a recursive mkdir says ENOENT; one level says why (EROFS).
    if (error.code !== 'ENOENT') throw error;
    await fs.mkdir(dir, { mode });
  });
  const stat = await fs.stat(dir);
  if ((stat.mode & 0o777 & ~mode) !== 0) await fs.chmod(dir, stat.mode & 0o777 & mode);
};

/**
 * Where a write to `file` must land: `file` itself, or, when it is a symlink (a dotfile manager's
 * link), the file it points to (followed through every link, a dangling one included), so the
 * link stays a link.
 */
export const resolveTarget = async (file: string): Promise<string> => {
  let current = file;
  for (let hops = 0; hops < 40; hops++) {
    let link: string;
    try {
      link = await fs.readlink(current);
    } catch {
      // Not a symlink (EINVAL) or not there (ENOENT): this is the file to write.
      return current;
    }
    current = path.resolve(path.dirname(current), link);
  }
  throw Object.assign(new Error(`${file}: too many levels of symbolic links`), { code: 'ELOOP' });
};

/**
 * Replace `file` atomically: write a temp file in the same directory, fsync it, rename over the
 * target, fsync the directory. Readers see the old or the new content, never a torn write.
 * A symlinked `file` is written through to its target (temp file in the target's directory);
 * an existing file keeps its mode when it is stricter than `mode` (never widened).
 */
export const writeFileAtomic = async (link: string, content: string, requestedMode = 0o600): Promise<void> => {
  const file = await resolveTarget(link);
  const existing = await fs.stat(file).then(
    (stat) => stat.mode & 0o777,
    () => undefined,
  );
  const mode = existing === undefined ? requestedMode : existing & requestedMode;
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
