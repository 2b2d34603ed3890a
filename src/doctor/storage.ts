import { accessSync, constants, statfsSync } from 'node:fs';
import path from 'node:path';
import { cacheDir, type Env } from '../config/paths.js';
import { describeFault, storageFault, type StorageFault } from '../util/storage-fault.js';

/** Below this many free bytes the cache folder's disk counts as full: a queue insert or an index flush would fail. */
const FULL_BELOW_BYTES = 1024 * 1024;

/** The cache folder's disk, when it cannot take writes: what runs degraded because of it. */
export interface StorageProblem {
  readonly path: string;
  readonly fault: StorageFault;
  readonly message: string;
}

/** The folder itself, or the nearest one above it that exists (where it would be made). */
const existing = (dir: string): string => {
  for (let at = dir; ; at = path.dirname(at)) {
    try {
      accessSync(at, constants.F_OK);
      return at;
    } catch {
      if (path.dirname(at) === at) return at;
    }
  }
};

/**
 * Whether the cache folder (webhook queue, search index, discovery cache) can be written, and its
 * disk has room. Undefined when it can.
 */
export const checkCacheStorage = (env: Env): StorageProblem | undefined => {
  const dir = cacheDir(env);
  const at = existing(dir);
  let fault: StorageFault | undefined;
  try {
    accessSync(at, constants.W_OK);
    const fs = statfsSync(at);
    if (fs.bavail * fs.bsize < FULL_BELOW_BYTES) fault = 'full';
  } catch (error) {
    fault = storageFault(error) ?? 'io';
  }
  if (fault === undefined) return undefined;
  return {
    path: dir,
    fault,
    message: `cache folder ${dir} cannot be written (${describeFault(fault)}): webhook deliveries are kept in memory only, search answers nothing new, the discovery cache is off`,
  };
};
