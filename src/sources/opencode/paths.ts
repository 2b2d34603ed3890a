import { readdirSync } from 'node:fs';
import path from 'node:path';
import { dataHome, type Env } from '../../config/paths.js';

/**
 * OpenCode's data directory: `$OPENCODE_DATA_DIR` (the watchers' override convention), else
 * OpenCode's XDG data dir (`$XDG_DATA_HOME/opencode`, default `~/.local/share/opencode`), on
 * every platform.
 */
export const opencodeDataDir = (env: Env): string => env.OPENCODE_DATA_DIR || path.join(dataHome(env), 'opencode');

/** `$OPENCODE_DB` as OpenCode reads it (absolute as it is, relative inside the data directory); `:memory:` keeps nothing on disk. */
const chosenDb = (env: Env, dir: string): string | undefined => {
  const chosen = env.OPENCODE_DB?.trim();
  if (!chosen || chosen === ':memory:') return undefined;
  return path.isAbsolute(chosen) ? chosen : path.join(dir, chosen);
};

/** OpenCode's database of the released channels: `$OPENCODE_DB` when set, else `opencode.db` in the data directory. */
export const opencodeDbPath = (env: Env): string => {
  const dir = opencodeDataDir(env);
  return chosenDb(env, dir) ?? path.join(dir, 'opencode.db');
};

/**
 * The databases of an OpenCode-family agent in `dir`: `<name>.db`, which the released channels
 * (latest, beta) write, first, whether or not it exists yet; then every `<name>-<channel>.db`
 * there, which every other build writes (a Nix install's `stable`, `nightly`, a build from
 * source's `local`). A user who switched channels has sessions in several.
 */
export const channelDatabases = (dir: string, name: string): string[] => {
  let channels: string[] = [];
  try {
    channels = readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.startsWith(`${name}-`) && entry.name.endsWith('.db') && entry.name.length > name.length + 4)
      .map((entry) => path.join(dir, entry.name))
      .sort();
  } catch {
    // No data directory yet: the released channel's database is watched for.
  }
  return [path.join(dir, `${name}.db`), ...channels];
};

/** Every OpenCode database to read: `$OPENCODE_DB` alone when set (OpenCode then uses no other), else every channel's. */
export const opencodeDbPaths = (env: Env): string[] => {
  const dir = opencodeDataDir(env);
  const chosen = chosenDb(env, dir);
  return chosen ? [chosen] : channelDatabases(dir, 'opencode');
};
