import { statSync, type Stats } from 'node:fs';
import { yieldIfDue } from '../../util/next-turn.js';

/**
 * The stats of `files` (undefined where a file is gone or cannot be stat'ed), taken synchronously
 * in time slices (next-turn.ts). A warm start is mostly these stats, and `fs.promises.stat` of
 * all of them at once cost several times the CPU of `statSync` one after the other (a promise and
 * a thread-pool round trip each; docs/performance.md).
 */
export const statAll = async (files: readonly string[]): Promise<(Stats | undefined)[]> => {
  const stats: (Stats | undefined)[] = new Array<Stats | undefined>(files.length);
  for (let i = 0; i < files.length; i += 1) {
    if (i % 64 === 63) await yieldIfDue();
    try {
      stats[i] = statSync(files[i] as string, { throwIfNoEntry: false });
    } catch {
      stats[i] = undefined;
    }
  }
  return stats;
};
