import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { Env } from '../config/paths.js';

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
  const dirs = (env.PATH ?? env.Path ?? '').split(platform === 'win32' ? ';' : ':').filter((dir) => dir !== '');
  const extensions = platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';').filter(Boolean) : [''];
  return {
    onPath: (name) => {
      for (const dir of dirs) {
        for (const ext of extensions) {
          const file = path.join(dir, `${name}${ext}`);
          if (isExecutableFile(file)) return file;
        }
      }
      return undefined;
    },
    exists: isExecutableFile,
  };
};
