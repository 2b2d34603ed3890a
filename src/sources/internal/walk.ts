import { readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import { yieldIfDue } from '../../util/next-turn.js';

/** What a directory holds, by kind: the names of its files and of its subdirectories. */
export interface DirListing {
  readonly files: readonly string[];
  readonly dirs: readonly string[];
}

/**
 * Listings remembered from an earlier walk (the discovery cache), keyed by the directory's
 * identity: adding, removing or renaming an entry moves a directory's mtime and ctime, so a
 * directory whose inode, mtime and ctime are those it had when listed holds the same entries, and
 * a warm start stats it instead of listing it. Both times: a tool can set an mtime back (`touch
 * -d`, `rsync -t`) but not a ctime, and a file system may keep only one of them current. The files
 * in it are still stat'ed one by one (they may have grown).
 */
export interface DirListingCache {
  /** The listing remembered for `dir` at exactly this identity (`identityOf`), or undefined. */
  readonly listing: (dir: string, identity: string) => DirListing | undefined;
  /** Remembers (or, with undefined, forgets) what `dir` held at this identity. */
  readonly rememberListing: (dir: string, identity: string, listing: DirListing | undefined) => void;
}

/**
 * A directory changed this recently is listed but not remembered: its times may not move for an
 * entry added in the same clock tick (file times are coarse; FAT's are 2 s), so it could not tell
 * the remembered listing from the new one (git's "racily clean" entries, the same way).
 */
export const LISTING_RACY_MS = 2_000;

/** What a directory's listing is remembered by: its inode, mtime and ctime. */
export const identityOf = (info: Pick<Stats, 'ino' | 'mtimeMs' | 'ctimeMs'>): string => `${info.ino}:${info.mtimeMs}:${info.ctimeMs}`;

const statOf = (dir: string): Stats | undefined => {
  try {
    return statSync(dir, { throwIfNoEntry: false });
  } catch {
    // Not ours to report: the listing that follows fails with the reason.
    return undefined;
  }
};

/**
 * Files and subdirectories of `dir` by one listing, symlinks followed (some users symlink project
 * folders or transcripts elsewhere, and the agents follow them). `linked` is set when an entry was
 * a symlink: its target can change without this directory's times moving, so such a listing is
 * never remembered.
 */
const listDir = (dir: string, prefix: string): { listing: DirListing; linked: boolean } => {
  const entries: Dirent[] = readdirSync(dir, { withFileTypes: true });
  const files: string[] = [];
  const dirs: string[] = [];
  let linked = false;
  for (const entry of entries) {
    let isFile = entry.isFile();
    let isDir = entry.isDirectory();
    if (entry.isSymbolicLink()) {
      linked = true;
      let target: Stats | undefined;
      try {
        target = statSync(prefix + entry.name, { throwIfNoEntry: false });
      } catch {
        target = undefined;
      }
      isFile = target?.isFile() ?? false;
      isDir = target?.isDirectory() ?? false;
    }
    if (isFile) files.push(entry.name);
    else if (isDir) dirs.push(entry.name);
  }
  return { listing: { files, dirs }, linked };
};

/**
 * Every file below `dir` down to `depth` directory levels (0: only `dir` itself), skipping
 * directories `skipDir` names. A missing directory yields nothing (the agent is not installed);
 * one that exists but cannot be read (permissions, a file where a directory belongs below the
 * root) is told to `onError` so the user hears of it: silence would look like "no sessions".
 * With `listings`, a directory unchanged since it was last listed is stat'ed, not listed.
 */
export const walkFiles = async (
  dir: string,
  depth: number,
  skipDir: (name: string) => boolean = () => false,
  onError: (dir: string, error: NodeJS.ErrnoException) => void = () => undefined,
  listings?: DirListingCache,
  now: () => number = Date.now,
): Promise<string[]> => {
  const found: string[] = [];
  // Synchronous reads, a directory at a time, in time slices (next-turn.ts): a warm start
  // walks thousands of directories, and `fs.promises.readdir` cost a promise and a thread-pool
  // round trip each (as stat-all.ts measured for stats).
  const pending: { readonly dir: string; readonly level: number }[] = [{ dir, level: 0 }];
  while (pending.length > 0) {
    const { dir: current, level } = pending.pop() as { dir: string; level: number };
    await yieldIfDue();
    // Entry names hold no separator and `current` is normalised: concatenation is path.join here.
    const prefix = current.endsWith(path.sep) ? current : current + path.sep;
    const info = listings === undefined ? undefined : statOf(current);
    const identity = info === undefined ? undefined : identityOf(info);
    let listing = identity === undefined ? undefined : listings?.listing(current, identity);
    if (listing === undefined) {
      try {
        const listed = listDir(current, prefix);
        listing = listed.listing;
        if (info !== undefined && identity !== undefined) {
          const settled = !listed.linked && now() - Math.max(info.ctimeMs, info.mtimeMs) > LISTING_RACY_MS;
          listings?.rememberListing(current, identity, settled ? listing : undefined);
        }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT') onError(current, error as NodeJS.ErrnoException);
        continue;
      }
    }
    for (const name of listing.files) found.push(prefix + name);
    if (level >= depth) continue;
    // Depth first in listing order, as the recursive walk visited them.
    for (let i = listing.dirs.length - 1; i >= 0; i -= 1) {
      const name = listing.dirs[i] as string;
      if (!skipDir(name)) pending.push({ dir: prefix + name, level: level + 1 });
    }
  }
  return found;
};

const DOT = 46;

/**
 * The number of segments of `rest` (a path below a root) when it is plain: no empty, `.` or `..`
 * segment, no trailing separator; -1 otherwise. Counted in place: it runs for every file on every
 * start, and splitting allocated an array of strings each time.
 */
const plainSegments = (rest: string): number => {
  let count = 0;
  let start = 0;
  for (;;) {
    const end = rest.indexOf(path.sep, start);
    const stop = end === -1 ? rest.length : end;
    const length = stop - start;
    if (length === 0) return -1;
    if (rest.charCodeAt(start) === DOT && (length === 1 || (length === 2 && rest.charCodeAt(start + 1) === DOT))) return -1;
    count += 1;
    if (end === -1) return count;
    start = end + 1;
  }
};

/**
 * The path segments of `file` below `root` (`a/b/c.jsonl` -> [a, b, c.jsonl]), or undefined when
 * `file` is not below it. A prefix cut for the normalised absolute paths the walk builds: it is
 * called per file on every start, and `path.relative` (which resolves both paths against the
 * working directory) was a visible part of a warm start (docs/performance.md).
 */
export const segmentsBelow = (root: string, file: string): string[] | undefined => {
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  if (path.isAbsolute(root) && file.startsWith(prefix)) {
    const rest = file.slice(prefix.length);
    if (plainSegments(rest) > 0) return rest.split(path.sep);
  }
  const rel = path.relative(root, file);
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep);
};

/**
 * A transcript below `root`: its path segments and its stem (the file name without `.jsonl`, the
 * session id of the agents that name files by it). Undefined for another kind of file, an empty
 * stem, or a file outside `root`.
 */
export const jsonlBelow = (root: string, file: string): { readonly parts: string[]; readonly stem: string } | undefined => {
  if (!file.endsWith('.jsonl')) return undefined;
  const parts = segmentsBelow(root, file);
  const stem = parts?.[parts.length - 1]?.slice(0, -'.jsonl'.length);
  return parts && stem ? { parts, stem } : undefined;
};

/** Directory levels from `root` down to `dir` (0 for the root itself), or -1 when `dir` is outside it. */
export const levelsBelow = (root: string, dir: string): number => {
  // Fast path for the normalised absolute paths the engine builds (called once per file per event).
  if (dir === root) return 0;
  const prefix = root.endsWith(path.sep) ? root : root + path.sep;
  if (path.isAbsolute(root) && dir.startsWith(prefix)) {
    const levels = plainSegments(dir.slice(prefix.length));
    if (levels > 0) return levels;
  }
  const rel = path.relative(root, dir);
  if (rel === '') return 0;
  if (rel.startsWith('..') || path.isAbsolute(rel)) return -1;
  return rel.split(path.sep).length;
};
