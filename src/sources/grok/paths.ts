import path from 'node:path';
import { homeDir, type Env } from '../../config/paths.js';
import { levelsBelow } from '../internal/walk.js';

/** Grok's home: `$GROK_HOME` (Grok honours it), else `~/.grok`; sessions live in its `sessions/`. */
export const grokSessionsDir = (env: Env): string => path.join(env.GROK_HOME || path.join(homeDir(env), '.grok'), 'sessions');

export const GROK_SUMMARY_FILE = 'summary.json';
export const GROK_CHAT_FILE = 'chat_history.jsonl';
/** Grok Build's ACP update stream: every turn ends with a `turn_completed` update carrying its usage. */
export const GROK_UPDATES_FILE = 'updates.jsonl';

/** `sessions/<pct-enc-cwd>/<session>/`: session directories sit exactly two levels down. */
export const GROK_SESSION_DEPTH = 2;

/** The session directory a path belongs to (the directory itself, or one of the files read), else undefined. */
export const grokSessionDirOf = (sessionsDir: string, file: string): string | undefined => {
  // Session directories are named by uuid; a name with an extension at that depth is a file
  // of the cwd level (`prompt_history.jsonl`).
  if (levelsBelow(sessionsDir, file) === GROK_SESSION_DEPTH) return path.extname(file) === '' ? file : undefined;
  const name = path.basename(file);
  if (name !== GROK_SUMMARY_FILE && name !== GROK_CHAT_FILE && name !== GROK_UPDATES_FILE) return undefined;
  const dir = path.dirname(file);
  return levelsBelow(sessionsDir, dir) === GROK_SESSION_DEPTH ? dir : undefined;
};
