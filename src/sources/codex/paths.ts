import path from 'node:path';
import { homeDir, type Env } from '../../config/paths.js';

/** `$CODEX_HOME`, else `~/.codex` (Codex itself honours the variable). */
export const codexHome = (env: Env): string => {
  const fromEnv = env.CODEX_HOME?.trim();
  return fromEnv ? path.resolve(fromEnv) : path.join(homeDir(env), '.codex');
};

export const codexSessionsDir = (env: Env): string => path.join(codexHome(env), 'sessions');
export const codexSessionIndexPath = (env: Env): string => path.join(codexHome(env), 'session_index.jsonl');

/** Rollouts are nested `YYYY/MM/DD`, but any nesting is accepted (AGENT-FORMATS.md 2.1). */
export const CODEX_TREE_DEPTH = 8;

const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i;

/**
 * The provisional session id of a rollout file: the uuid at the end of its name (which is the
 * rollout id), else the file stem. The `session_meta` record, read first, has the final word.
 */
export const codexIdFromFile = (file: string): string | undefined => {
  if (!file.endsWith('.jsonl')) return undefined;
  const match = UUID.exec(path.basename(file));
  return match?.[1] ?? path.basename(file, '.jsonl');
};
