import { createRequire } from 'node:module';
import path from 'node:path';
import type whichModule from 'which';

type Which = typeof whichModule;
// Loaded on first use (synchronously, for `findOnPath`): most runs never look a tool up.
let loaded: Which | undefined;
const which = (): Which => (loaded ??= createRequire(import.meta.url)('which') as Which);

/** Where to look: a PATH value, and on Windows the PATHEXT one; `delimiter` defaults to this platform's. */
export interface SearchPath {
  readonly path: string | undefined;
  readonly pathExt?: string | undefined;
  readonly delimiter?: string;
}

/**
 * `which` over the given directories rather than this process's PATH. Empty entries are dropped,
 * and with none left nothing is searched: `which` would look in the working directory for an
 * empty entry and in `process.env.PATH` for a missing one.
 */
const whichOptions = ({ path: searchPath, pathExt, delimiter = path.delimiter }: SearchPath): { path: string; pathExt?: string; delimiter: string; nothrow: true } | undefined => {
  const dirs = (searchPath ?? '').split(delimiter).filter((dir) => dir !== '');
  if (dirs.length === 0) return undefined;
  return { path: dirs.join(delimiter), delimiter, nothrow: true, ...(pathExt === undefined ? {} : { pathExt }) };
};

/** The first executable file `name` on the search path, or undefined (an absent tool is normal, not an error). */
export const findOnPath = (name: string, where: SearchPath): string | undefined => {
  const options = whichOptions(where);
  return options === undefined ? undefined : (which().sync(name, options) ?? undefined);
};

/** `findOnPath` without blocking the event loop on the file checks. */
export const findOnPathAsync = async (name: string, where: SearchPath): Promise<string | undefined> => {
  const options = whichOptions(where);
  return options === undefined ? undefined : ((await which()(name, options)) ?? undefined);
};
