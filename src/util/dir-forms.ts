import { realpathSync } from 'node:fs';

/**
 * The paths a directory goes by: as given and, when it exists and differs, its real path. A
 * session records the cwd its agent saw: through a symlink (`/tmp` on macOS is `/private/tmp`)
 * that is often the real path, while a user names the directory as they reach it.
 */
export const dirForms = (dir: string): string[] => {
  try {
    const real = realpathSync(dir);
    return real === dir ? [dir] : [dir, real];
  } catch {
    // Not there (any more): the name as given is all there is to match.
    return [dir];
  }
};
