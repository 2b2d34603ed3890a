import path from 'node:path';

/** Git worktree facts of a session's cwd (`is_worktree`, `main_repo` in docs/api.md). */
export interface WorktreeInfo {
  readonly isWorktree: boolean;
  /** The main repository's directory when `isWorktree`, else "". */
  readonly mainRepo: string;
}

export const NOT_A_WORKTREE: WorktreeInfo = { isWorktree: false, mainRepo: '' };

/**
 * Pure: the content of a `.git` *file* -> worktree facts. A linked worktree's `.git` file reads
 * `gitdir: <main>/.git/worktrees/<name>`; relative paths are relative to the file's directory.
 * Submodules also use a `.git` file (`gitdir: ../.git/modules/x`): not a worktree.
 */
export const parseGitFile = (content: string, dir: string): WorktreeInfo => {
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(content);
  if (!match?.[1]) return NOT_A_WORKTREE;
  const gitdir = path.resolve(dir, match[1]);
  const marker = `${path.sep}.git${path.sep}worktrees${path.sep}`;
  const at = gitdir.lastIndexOf(marker);
  if (at <= 0) return NOT_A_WORKTREE;
  return { isWorktree: true, mainRepo: gitdir.slice(0, at) };
};

/** A lookup that reads the disk once per cwd (a worktree does not turn into a main repo while we run). */
export type WorktreeLookup = (cwd: string) => WorktreeInfo;
