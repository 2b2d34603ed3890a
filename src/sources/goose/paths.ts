import path from 'node:path';
import { dataHome, homeDir, type Env } from '../../config/paths.js';

/**
 * Goose's data folder: `$GOOSE_PATH_ROOT/data` when that is an absolute path (Goose ignores a
 * relative one), else the XDG data folder `$XDG_DATA_HOME/goose` (default `~/.local/share/goose`)
 * on Linux and macOS alike, and `%APPDATA%\Block\goose\data` on Windows.
 */
const gooseDataDir = (env: Env, platform: NodeJS.Platform): string => {
  const root = env.GOOSE_PATH_ROOT?.trim();
  if (root && path.isAbsolute(root)) return path.join(root, 'data');
  if (platform === 'win32') return path.join(env.APPDATA || path.join(homeDir(env), 'AppData', 'Roaming'), 'Block', 'goose', 'data');
  return path.join(dataHome(env), 'goose');
};

/** `sessions/sessions.db` in the data folder: every session, since Goose moved off JSONL files. */
export const gooseDbPath = (env: Env, platform: NodeJS.Platform): string => path.join(gooseDataDir(env, platform), 'sessions', 'sessions.db');
