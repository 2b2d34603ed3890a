import path from 'node:path';
import { dataHome, type Env } from '../../config/paths.js';

/**
 * OpenCode's database as OpenCode itself finds it: `$OPENCODE_DB` when set (an absolute path as
 * it is, a relative one inside the data directory; `:memory:` keeps nothing on disk and is
 * ignored), else `opencode.db` in the data directory. The data directory is `$OPENCODE_DATA_DIR`
 * (the watchers' override convention), else OpenCode's XDG data dir (`$XDG_DATA_HOME/opencode`,
 * default `~/.local/share/opencode`), on every platform.
 */
export const opencodeDbPath = (env: Env): string => {
  const dir = env.OPENCODE_DATA_DIR || path.join(dataHome(env), 'opencode');
  const chosen = env.OPENCODE_DB?.trim();
  if (chosen && chosen !== ':memory:') return path.isAbsolute(chosen) ? chosen : path.join(dir, chosen);
  return path.join(dir, 'opencode.db');
};
