import path from 'node:path';
import { dataHome, type Env } from '../../config/paths.js';
import { channelDatabases } from '../opencode/paths.js';

/** Kilo's data directory: `$KILO_DATA_DIR`, else `$XDG_DATA_HOME/kilo` (default `~/.local/share/kilo`). */
const kiloDataDir = (env: Env): string => env.KILO_DATA_DIR || path.join(dataHome(env), 'kilo');

/** `kilo.db` in Kilo's data directory. */
export const kiloDbPath = (env: Env): string => path.join(kiloDataDir(env), 'kilo.db');

/** `kilo.db` and, as OpenCode (which Kilo forks) names a build's channel, every `kilo-<channel>.db`. */
export const kiloDbPaths = (env: Env): string[] => channelDatabases(kiloDataDir(env), 'kilo');
