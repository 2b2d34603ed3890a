import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { NOT_A_WORKTREE, parseGitFile, type WorktreeInfo, type WorktreeLookup } from '../streams/worktree.js';

/** Reads `<dir>/.git`, walking up to the filesystem root; without spawning git. */
const detect = (cwd: string): WorktreeInfo => {
  let dir = path.resolve(cwd);
  for (;;) {
    const dotGit = path.join(dir, '.git');
    try {
      const stat = statSync(dotGit);
      if (stat.isDirectory()) return NOT_A_WORKTREE;
      if (stat.isFile()) return parseGitFile(readFileSync(dotGit, 'utf8'), dir);
    } catch {
      // No .git here (or unreadable): look one level up.
    }
    const parent = path.dirname(dir);
    if (parent === dir) return NOT_A_WORKTREE;
    dir = parent;
  }
};

export const createWorktreeLookup = (): WorktreeLookup => {
  const cache = new Map<string, WorktreeInfo>();
  return (cwd) => {
    if (cwd === '') return NOT_A_WORKTREE;
    const known = cache.get(cwd);
    if (known) return known;
    const info = detect(cwd);
    cache.set(cwd, info);
    return info;
  };
};
