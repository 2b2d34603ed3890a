import path from 'node:path';
import { dataHome, type Env } from '../../config/paths.js';

/**
 * `$OPENCODE_DATA_DIR/opencode.db`, else opencode's XDG data dir
 * (`$XDG_DATA_HOME/opencode`, default `~/.local/share/opencode`), on every platform.
 */
export const opencodeDbPath = (env: Env): string =>
  path.join(env.OPENCODE_DATA_DIR || path.join(dataHome(env), 'opencode'), 'opencode.db');
