import os from 'node:os';
import path from 'node:path';
import type { Env } from '../core/env.js';

export type { Env };

/** The account's home from the user database, for a process started without HOME (env -i, some services). */
const accountHome = (): string | undefined => {
  try {
    return os.userInfo().homedir || undefined;
  } catch {
    return undefined;
  }
};

/**
 * Home directory from the environment first, so tests (and sudo'd shells) never touch the real one;
 * without HOME the account's home, never `/` (that would put config and cache in `/.config`).
 */
export const homeDir = (env: Env): string => env.HOME || env.USERPROFILE || accountHome() || '/';

/** `~` and `~/...` in a path an agent's setting or variable names, made absolute in `env`'s home. */
export const expandHome = (dir: string, env: Env): string => (dir === '~' || dir.startsWith('~/') ? path.join(homeDir(env), dir.slice(1)) : dir);

export const configDir = (env: Env): string =>
  path.join(env.XDG_CONFIG_HOME ? env.XDG_CONFIG_HOME : path.join(homeDir(env), '.config'), 'agentwatch');

export const configPath = (env: Env): string => path.join(configDir(env), 'config.json');

export const sessionNamesPath = (env: Env): string => path.join(configDir(env), 'session-names.json');

/** Lock file serialising every read-modify-write of files in the config directory across processes. */
export const configLockPath = (env: Env): string => path.join(configDir(env), '.lock');

export const cacheDir = (env: Env): string =>
  path.join(env.XDG_CACHE_HOME ? env.XDG_CACHE_HOME : path.join(homeDir(env), '.cache'), 'agentwatch');

export const dataHome = (env: Env): string =>
  env.XDG_DATA_HOME ? env.XDG_DATA_HOME : path.join(homeDir(env), '.local', 'share');

export const xdgConfigHome = (env: Env): string =>
  env.XDG_CONFIG_HOME ? env.XDG_CONFIG_HOME : path.join(homeDir(env), '.config');
