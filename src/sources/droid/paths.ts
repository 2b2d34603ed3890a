import path from 'node:path';
import { homeDir, type Env } from '../../config/paths.js';
import { jsonlBelow } from '../internal/walk.js';

/**
 * The home Droid keeps `.factory/` under: `$FACTORY_HOME_OVERRIDE` when it is an absolute path
 * (the one way Droid's binary moves its files), else the user's home.
 */
const droidHome = (env: Env): string => {
  const override = env.FACTORY_HOME_OVERRIDE?.trim();
  return override && path.isAbsolute(override) ? override : homeDir(env);
};

/** `~/.factory/sessions`: one folder per working directory, its path with every non-alphanumeric character turned into `-`. */
export const droidSessionsDir = (env: Env): string => path.join(droidHome(env), '.factory', 'sessions');

/** `<folder>/<session id>.jsonl`, one level below the sessions directory. */
export const DROID_TREE_DEPTH = 1;

/** The session id of a transcript (its stem), else undefined. */
export const droidIdFromFile = (sessionsDir: string, file: string): string | undefined => {
  const found = jsonlBelow(sessionsDir, file);
  return found && found.parts.length === 2 ? found.stem : undefined;
};

/** The settings file Droid keeps beside a transcript: model and cumulative token usage. */
export const droidSettingsFile = (transcript: string): string => transcript.replace(/\.jsonl$/, '.settings.json');
