import { readdirSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { yieldIfDue } from '../../util/next-turn.js';

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
  // Synchronous reads, a directory at a time, in time slices (next-turn.ts): a warm start
  // walks thousands of directories, and `fs.promises.readdir` cost a promise and a thread-pool
  // round trip each (as stat-all.ts measured for stats).
  const pending: { readonly dir: string; readonly level: number }[] = [{ dir, level: 0 }];
  while (pending.length > 0) {
    const { dir: current, level } = pending.pop() as { dir: string; level: number };
    await yieldIfDue();
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') onError(current, error as NodeJS.ErrnoException);
      continue;
    }
    // Entry names hold no separator and `current` is normalised: concatenation is path.join here.
    const prefix = current.endsWith(path.sep) ? current : current + path.sep;
    const subdirs: string[] = [];
    for (const entry of entries) {
      const full = prefix + entry.name;
      let isFile = entry.isFile();
      let isDir = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        // Some users symlink project folders or transcripts elsewhere: follow, as the agents do.
        let target: Stats | undefined;
        try {
          target = statSync(full, { throwIfNoEntry: false });
        } catch {
          target = undefined;
        }
        isFile = target?.isFile() ?? false;
        isDir = target?.isDirectory() ?? false;
      }
      if (isFile) found.push(full);
      else if (isDir && level < depth && !skipDir(entry.name)) subdirs.push(full);
    }
    // Depth first in listing order, as the recursive walk visited them.
    for (let i = subdirs.length - 1; i >= 0; i -= 1) pending.push({ dir: subdirs[i] as string, level: level + 1 });
  }
  return found;
};

/** True when `rest` (a path below a root) is plain: no empty, `.` or `..` segment, no trailing separator. */
const isPlainRelative = (rest: string): boolean => {
  if (rest === '' || rest.endsWith(path.sep)) return false;
  for (const segment of rest.split(path.sep)) if (segment === '' || segment === '.' || segment === '..') return false;
  return true;
};

/**
 * The path segments of `file` below `root` (`a/b/c.jsonl` -> [a, b, c.jsonl]), or undefined when
 * `file` is not below it. A prefix cut for the normalised absolute paths the walk builds: it is
 * called per file on every start, and `path.relative` (which resolves both paths against the
 * working directory) cost a warm start about 20 µs a file.
 */
export const segmentsBelow = (root: string, file: string): string[] | undefined => {
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  if (path.isAbsolute(root) && file.startsWith(prefix)) {
    const rest = file.slice(prefix.length);
    if (isPlainRelative(rest)) return rest.split(path.sep);
  }
  const rel = path.relative(root, file);
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep);
};

/** Directory levels from `root` down to `dir` (0 for the root itself), or -1 when `dir` is outside it. */
export const levelsBelow = (root: string, dir: string): number => {
  // Fast path for the normalised absolute paths the engine builds (called once per file per event).
  if (dir === root) return 0;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  if (path.isAbsolute(root) && dir.startsWith(prefix)) {
    const rest = dir.slice(prefix.length);
    if (isPlainRelative(rest)) return rest.split(path.sep).length;
  }
  const rel = path.relative(root, dir);
  if (rel === '') return 0;
  if (rel.startsWith('..') || path.isAbsolute(rel)) return -1;
  return rel.split(path.sep).length;
};
