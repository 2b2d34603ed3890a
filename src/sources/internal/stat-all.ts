import { statSync, type Stats } from 'node:fs';
import { yieldIfDue } from '../../util/next-turn.js';

/**
 * The stats of `files` (undefined where a file is gone or cannot be stat'ed), taken synchronously
 * in time slices (next-turn.ts). A warm start is mostly these stats: measured on
 * 6,750 transcripts, `fs.promises.stat` of all of them at once cost 112-126 ms of CPU (a promise
 * and a thread-pool round trip each), `statSync` one after the other 35 ms.
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
