import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOnPath, findOnPathAsync } from '../../src/util/find-on-path.js';

describe('findOnPath', () => {
  let root: string;
  let first: string;
  let second: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'agentwatch-which-'));
    first = path.join(root, 'first');
    second = path.join(root, 'second');
    await mkdir(first);
    await mkdir(second);
    // In `first`: a tool that is not executable, and a directory of a tool's name.
    await writeFile(path.join(first, 'tool'), '#!/bin/sh\n');
    await mkdir(path.join(first, 'other'));
    for (const name of ['tool', 'other']) {
      await writeFile(path.join(second, name), '#!/bin/sh\n');
      await chmod(path.join(second, name), 0o755);
    }
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  const both = async (name: string, searchPath: string | undefined): Promise<(string | undefined)[]> => [findOnPath(name, { path: searchPath }), await findOnPathAsync(name, { path: searchPath })];

  it('finds the first executable file of that name, skipping files that are not executable and directories', async () => {
    expect(await both('tool', [first, second].join(path.delimiter))).toEqual([path.join(second, 'tool'), path.join(second, 'tool')]);
    expect(await both('other', [first, second].join(path.delimiter))).toEqual([path.join(second, 'other'), path.join(second, 'other')]);
    expect(await both('absent', [first, second].join(path.delimiter))).toEqual([undefined, undefined]);
  });

  it('searches only the given directories: never the working directory, never this process PATH', async () => {
    const cwd = process.cwd();
    process.chdir(second);
    try {
      expect(await both('tool', undefined)).toEqual([undefined, undefined]);
      expect(await both('tool', '')).toEqual([undefined, undefined]);
      expect(await both('tool', `${path.delimiter}${first}${path.delimiter}`)).toEqual([undefined, undefined]);
      // `sh` is on this process's PATH, not on the one given.
      expect(await both('sh', first)).toEqual([undefined, undefined]);
    } finally {
      process.chdir(cwd);
    }
  });
});
