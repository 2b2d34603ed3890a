import path from 'node:path';
import { dataHome, homeDir, type Env } from '../../config/paths.js';

/**
 * Crush's global data folder, which holds its project registry: `$CRUSH_GLOBAL_DATA`, else
 * `$XDG_DATA_HOME/crush`, else `%LOCALAPPDATA%\crush` on Windows and `~/.local/share/crush`
 * elsewhere (macOS included).
 */
const crushDataDir = (env: Env, platform: NodeJS.Platform): string => {
  if (env.CRUSH_GLOBAL_DATA) return env.CRUSH_GLOBAL_DATA;
  if (env.XDG_DATA_HOME) return path.join(env.XDG_DATA_HOME, 'crush');
  if (platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(homeDir(env), 'AppData', 'Local'), 'crush');
  return path.join(dataHome(env), 'crush');
};

/** The registry of every project Crush was started in, with the data folder it uses there. */
export const crushRegistryPath = (env: Env, platform: NodeJS.Platform): string => path.join(crushDataDir(env, platform), 'projects.json');

/** A project's database: `crush.db` in its data folder (`<project>/.crush` unless configured otherwise). */
export const crushDbPathIn = (dataDir: string): string => path.join(dataDir, 'crush.db');
