import { accessSync, constants, statSync } from 'node:fs';
import type { Env } from '../config/paths.js';
import { findOnPath } from '../util/find-on-path.js';

/** Finds executables: on `PATH` by name, or at a fixed path (macOS app bundles). Injected in tests. */
export interface Finder {
  readonly onPath: (name: string) => string | undefined;
  readonly exists: (file: string) => boolean;
}

const isExecutableFile = (file: string): boolean => {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The real finder over `env.PATH` (and `PATHEXT` on Windows). */
export const pathFinder = (env: Env, platform: NodeJS.Platform): Finder => {
  const where = { path: env.PATH ?? env.Path, pathExt: env.PATHEXT, delimiter: platform === 'win32' ? ';' : ':' };
  return { onPath: (name) => findOnPath(name, where), exists: isExecutableFile };
};
