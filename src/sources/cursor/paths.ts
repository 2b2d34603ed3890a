import path from 'node:path';
import { homeDir, xdgConfigHome, type Env } from '../../config/paths.js';

const GLOBAL_STORAGE = ['Cursor', 'User', 'globalStorage', 'state.vscdb'] as const;

/**
 * Cursor's `state.vscdb` (docs/formats/cursor.md): under Application Support on macOS, `%APPDATA%`
 * on Windows, `$XDG_CONFIG_HOME` (default `~/.config`) elsewhere.
 */
export const cursorDbPath = (env: Env, platform: NodeJS.Platform): string => {
  if (platform === 'darwin') return path.join(homeDir(env), 'Library', 'Application Support', ...GLOBAL_STORAGE);
  if (platform === 'win32') return path.join(env.APPDATA || path.join(homeDir(env), 'AppData', 'Roaming'), ...GLOBAL_STORAGE);
  return path.join(xdgConfigHome(env), ...GLOBAL_STORAGE);
};
