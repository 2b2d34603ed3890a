import path from 'node:path';
import { dataHome, type Env } from '../../config/paths.js';

/** `$KILO_DATA_DIR/kilo.db`, else `$XDG_DATA_HOME/kilo/kilo.db` (default `~/.local/share/kilo`). */
export const kiloDbPath = (env: Env): string => path.join(env.KILO_DATA_DIR || path.join(dataHome(env), 'kilo'), 'kilo.db');
