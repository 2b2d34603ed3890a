import path from 'node:path';
import { homeDir, type Env } from '../../config/paths.js';
import { jsonlBelow } from '../internal/walk.js';

/** Copilot CLI's folder: `$COPILOT_HOME` (the CLI honours it), else `~/.copilot`. */
const copilotHome = (env: Env): string => {
  const fromEnv = env.COPILOT_HOME?.trim();
  return fromEnv ? path.resolve(fromEnv) : path.join(homeDir(env), '.copilot');
};

/** `session-state/<session id>/events.jsonl`, one folder per session. */
export const copilotSessionsDir = (env: Env): string => path.join(copilotHome(env), 'session-state');

/** The event log sits one folder below the sessions folder. */
export const COPILOT_TREE_DEPTH = 1;

const EVENTS_FILE = 'events';

/** The session id of an event log (its folder's name), else undefined. */
export const copilotIdFromFile = (sessionsDir: string, file: string): string | undefined => {
  const found = jsonlBelow(sessionsDir, file);
  return found && found.parts.length === 2 && found.stem === EVENTS_FILE ? found.parts[0] : undefined;
};
