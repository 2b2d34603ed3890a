import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Every file below `dir` down to `depth` directory levels (0: only `dir` itself), skipping
 * directories `skipDir` names. A missing directory yields nothing (the agent is not installed);
 * one that exists but cannot be read (permissions, a file where a directory belongs below the
 * root) is told to `onError` so the user hears of it: silence would look like "no sessions".
 */
export const walkFiles = async (
  dir: string,
  depth: number,
  skipDir: (name: string) => boolean = () => false,
  onError: (dir: string, error: NodeJS.ErrnoException) => void = () => undefined,
): Promise<string[]> => {
  const found: string[] = [];
  const visit = async (current: string, level: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') onError(current, error as NodeJS.ErrnoException);
      return;
    }
    const subdirs: Promise<void>[] = [];
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      let isFile = entry.isFile();
      let isDir = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        // Some users symlink project folders or transcripts elsewhere: follow, as the agents do.
        const target = await stat(full).catch(() => undefined);
        isFile = target?.isFile() ?? false;
        isDir = target?.isDirectory() ?? false;
      }
      if (isFile) found.push(full);
      else if (isDir && level < depth && !skipDir(entry.name)) subdirs.push(visit(full, level + 1));
    }
    await Promise.all(subdirs);
  };
  await visit(dir, 0);
  return found;
};

/** Directory levels from `root` down to `dir` (0 for the root itself), or -1 when `dir` is outside it. */
export const levelsBelow = (root: string, dir: string): number => {
  const rel = path.relative(root, dir);
  if (rel === '') return 0;
  if (rel.startsWith('..') || path.isAbsolute(rel)) return -1;
  return rel.split(path.sep).length;
};
