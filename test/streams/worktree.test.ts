import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorktreeLookup } from '../../src/app/worktree.js';
import { parseGitFile } from '../../src/streams/worktree.js';

describe('parseGitFile', () => {
  it('reads a linked worktree, absolute or relative', () => {
    expect(parseGitFile('gitdir: /r/main/.git/worktrees/feat\n', '/r/feat')).toEqual({ isWorktree: true, mainRepo: '/r/main' });
    expect(parseGitFile('gitdir: ../main/.git/worktrees/feat', '/r/feat')).toEqual({ isWorktree: true, mainRepo: '/r/main' });
  });

  it('a submodule or junk is not a worktree', () => {
    expect(parseGitFile('gitdir: ../.git/modules/lib', '/r/main/lib')).toEqual({ isWorktree: false, mainRepo: '' });
    expect(parseGitFile('not a git file', '/r')).toEqual({ isWorktree: false, mainRepo: '' });
  });
});

describe('createWorktreeLookup (real directories)', () => {
  let root = '';
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'agentwatch-worktree-'));
    await mkdir(path.join(root, 'main', '.git', 'worktrees', 'feat'), { recursive: true });
    await mkdir(path.join(root, 'main', 'src'), { recursive: true });
    await mkdir(path.join(root, 'feat', 'src', 'deep'), { recursive: true });
    await writeFile(path.join(root, 'feat', '.git'), `gitdir: ${path.join(root, 'main', '.git', 'worktrees', 'feat')}\n`);
    await mkdir(path.join(root, 'plain'), { recursive: true });
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('detects a worktree from its root and from a subdirectory; the main repo is not one', () => {
    const lookup = createWorktreeLookup();
    expect(lookup(path.join(root, 'feat'))).toEqual({ isWorktree: true, mainRepo: path.join(root, 'main') });
    expect(lookup(path.join(root, 'feat', 'src', 'deep'))).toEqual({ isWorktree: true, mainRepo: path.join(root, 'main') });
    expect(lookup(path.join(root, 'main', 'src'))).toEqual({ isWorktree: false, mainRepo: '' });
    expect(lookup(path.join(root, 'plain'))).toEqual({ isWorktree: false, mainRepo: '' });
    expect(lookup(path.join(root, 'does-not-exist'))).toEqual({ isWorktree: false, mainRepo: '' });
  });

  it('reads the disk once per cwd', async () => {
    const lookup = createWorktreeLookup();
    const dir = path.join(root, 'feat');
    expect(lookup(dir).isWorktree).toBe(true);
    await rm(path.join(dir, '.git'));
    expect(lookup(dir).isWorktree).toBe(true);
    expect(createWorktreeLookup()(dir).isWorktree).toBe(false);
  });
});
