import { chmod, mkdir, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDiscoveryCache } from '../../../src/sources/internal/cache.js';
import { identityOf, LISTING_RACY_MS, walkFiles, type DirListing, type DirListingCache } from '../../../src/sources/internal/walk.js';
import { makeTempHome, type TempHome } from '../../helpers/temp-home.js';

/** An in-memory DirListingCache that records what the walk asked and told it. */
const memoryListings = () => {
  const rows = new Map<string, { identity: string; listing: DirListing }>();
  const asked: string[] = [];
  const cache: DirListingCache = {
    listing: (dir, identity) => {
      asked.push(dir);
      const row = rows.get(dir);
      return row && row.identity === identity ? row.listing : undefined;
    },
    rememberListing: (dir, identity, listing) => {
      if (listing === undefined) rows.delete(dir);
      else rows.set(dir, { identity, listing });
    },
  };
  return { cache, rows, asked };
};

/**
 * Directory listings through a cache: a directory whose inode, mtime and ctime are those it had when
 * listed is not listed again. That shows from outside only one way: a remembered listing that no
 * longer matches the disk comes back as long as the directory's identity is unchanged.
 */
describe('walkFiles with remembered listings', () => {
  let home: TempHome;
  let root: string;
  beforeEach(async () => {
    home = await makeTempHome('agentwatch-walk-');
    root = path.join(home.home, 'sessions');
    await mkdir(path.join(root, 'p1', 'deep'), { recursive: true });
    await mkdir(path.join(root, 'p2'), { recursive: true });
    await writeFile(path.join(root, 'p1', 'a.jsonl'), '');
    await writeFile(path.join(root, 'p1', 'deep', 'b.jsonl'), '');
    await writeFile(path.join(root, 'p2', 'c.jsonl'), '');
  });
  afterEach(() => home.cleanup());

  const later = () => Date.now() + 60_000;
  const sorted = (files: string[]) => files.map((f) => path.relative(root, f)).sort();

  it('lists the same files with and without a cache, and remembers settled directories', async () => {
    const plain = await walkFiles(root, 2);
    const { cache, rows } = memoryListings();
    expect(await walkFiles(root, 2, undefined, undefined, cache, later)).toEqual(plain);
    expect(sorted(plain)).toEqual(['p1/a.jsonl', 'p1/deep/b.jsonl', 'p2/c.jsonl']);
    expect([...rows.keys()].map((d) => path.relative(root, d)).sort()).toEqual(['', 'p1', 'p1/deep', 'p2']);
    expect(rows.get(path.join(root, 'p1'))?.listing).toEqual({ files: ['a.jsonl'], dirs: ['deep'] });
    // A second walk from the cache finds the same files.
    expect(await walkFiles(root, 2, undefined, undefined, cache, later)).toEqual(plain);
  });

  it('trusts a remembered listing while the directory is unchanged, and lists it again once an entry comes or goes', async () => {
    const { cache, rows } = memoryListings();
    await walkFiles(root, 2, undefined, undefined, cache, later);
    const p2 = path.join(root, 'p2');
    const row = rows.get(p2);
    if (!row) throw new Error('p2 not remembered');
    // The remembered listing is what a walk of an unchanged directory uses: proven by doctoring it.
    rows.set(p2, { ...row, listing: { files: ['c.jsonl', 'ghost.jsonl'], dirs: [] } });
    expect(sorted(await walkFiles(root, 2, undefined, undefined, cache, later))).toContain('p2/ghost.jsonl');
    // A file added moves the directory's times: listed from disk again, the ghost is gone.
    await writeFile(path.join(p2, 'd.jsonl'), '');
    expect(sorted(await walkFiles(root, 2, undefined, undefined, cache, later))).toEqual(['p1/a.jsonl', 'p1/deep/b.jsonl', 'p2/c.jsonl', 'p2/d.jsonl']);
    // An entry added with the directory's mtime put back (as `touch -d` or `rsync -t` can): its ctime
    // still moved, so it is listed again.
    const settledAt = Math.floor(Date.now() / 1000) - 3_600;
    await utimes(p2, settledAt, settledAt);
    await walkFiles(root, 2, undefined, undefined, cache, later);
    const before = await stat(p2);
    await writeFile(path.join(p2, 'hidden.jsonl'), '');
    await utimes(p2, settledAt, settledAt);
    expect((await stat(p2)).mtimeMs).toBe(before.mtimeMs);
    expect(sorted(await walkFiles(root, 2, undefined, undefined, cache, later))).toContain('p2/hidden.jsonl');
    // So does a file removed, and a directory replaced by another of the same name (new inode).
    await rm(path.join(p2, 'c.jsonl'));
    expect(sorted(await walkFiles(root, 2, undefined, undefined, cache, later))).not.toContain('p2/c.jsonl');
    await rm(path.join(root, 'p1', 'deep'), { recursive: true });
    await mkdir(path.join(root, 'p1', 'deep'));
    await writeFile(path.join(root, 'p1', 'deep', 'e.jsonl'), '');
    expect(sorted(await walkFiles(root, 2, undefined, undefined, cache, later))).toEqual(['p1/a.jsonl', 'p1/deep/e.jsonl', 'p2/d.jsonl', 'p2/hidden.jsonl']);
  });

  it('does not remember a directory changed within the racy window, nor one holding a symlink', async () => {
    const { cache, rows } = memoryListings();
    const p1 = path.join(root, 'p1');
    const info = await stat(p1);
    const changedAt = Math.max(info.ctimeMs, info.mtimeMs);
    await walkFiles(root, 2, undefined, undefined, cache, () => changedAt + LISTING_RACY_MS);
    expect(rows.has(p1)).toBe(false);
    await symlink(path.join(root, 'p2'), path.join(root, 'linked'));
    await walkFiles(root, 2, undefined, undefined, cache, later);
    expect(rows.has(root)).toBe(false);
    expect(rows.has(p1)).toBe(true);
    // The symlinked directory is followed, as before.
    expect(sorted(await walkFiles(root, 2, undefined, undefined, cache, later))).toContain('linked/c.jsonl');
  });

  it('keeps depth and skipped directories as the plain walk does, and reports an unreadable directory', async () => {
    const { cache } = memoryListings();
    await walkFiles(root, 2, undefined, undefined, cache, later);
    expect(sorted(await walkFiles(root, 1, undefined, undefined, cache, later))).toEqual(['p1/a.jsonl', 'p2/c.jsonl']);
    expect(sorted(await walkFiles(root, 2, (name) => name === 'deep', undefined, cache, later))).toEqual(['p1/a.jsonl', 'p2/c.jsonl']);
    if (process.getuid?.() === 0) return; // root reads any directory
    const locked = path.join(root, 'p2');
    await writeFile(path.join(locked, 'new.jsonl'), '');
    await chmod(locked, 0o000);
    try {
      const errors: string[] = [];
      await walkFiles(root, 2, undefined, (dir, error) => errors.push(`${path.relative(root, dir)} ${error.code}`), cache, later);
      expect(errors).toEqual(['p2 EACCES']);
    } finally {
      await chmod(locked, 0o755);
    }
  });

  it('round-trips listings through the discovery cache, and forgets the unasked ones under a root after a walk', async () => {
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const first = openDiscoveryCache(home.env, quiet);
    await walkFiles(root, 2, undefined, undefined, first, later);
    first.close();

    const p2 = path.join(root, 'p2');
    const p2Info = await stat(p2);
    const identity = identityOf(p2Info);
    const second = openDiscoveryCache(home.env, quiet);
    expect(second.listing(p2, identity)).toEqual({ files: ['c.jsonl'], dirs: [] });
    // Another inode, mtime or ctime is another directory state.
    expect(second.listing(p2, identityOf({ ...p2Info, ctimeMs: p2Info.ctimeMs + 1 }))).toBeUndefined();
    expect(second.listing(p2, identityOf({ ...p2Info, mtimeMs: p2Info.mtimeMs + 1 }))).toBeUndefined();
    expect(second.listing(p2, identityOf({ ...p2Info, ino: p2Info.ino + 1 }))).toBeUndefined();
    expect(second.listing(path.join(root, 'never'), identity)).toBeUndefined();
    // A listing elsewhere survives a forget under `root`; under it, only what was asked does.
    second.rememberListing('/elsewhere', '1:1:1', { files: ['x'], dirs: [] });
    second.forgetUnaskedListings(root);
    second.close();

    const third = openDiscoveryCache(home.env, quiet);
    expect(third.listing(path.join(root, 'p1'), identityOf(await stat(path.join(root, 'p1'))))).toBeUndefined();
    expect(third.listing(p2, identity)).toEqual({ files: ['c.jsonl'], dirs: [] });
    expect(third.listing('/elsewhere', '1:1:1')).toEqual({ files: ['x'], dirs: [] });
    // Forgetting, then writing: gone for the next start.
    third.rememberListing(p2, identity, undefined);
    third.close();
    const fourth = openDiscoveryCache(home.env, quiet);
    expect(fourth.listing(p2, identity)).toBeUndefined();
    fourth.close();
  });
});
