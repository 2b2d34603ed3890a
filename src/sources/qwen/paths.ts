import path from 'node:path';
import { expandHome, homeDir, type Env } from '../../config/paths.js';
import { jsonlBelow, segmentsBelow } from '../internal/walk.js';

/**
 * Where Qwen Code keeps its runtime data: `$QWEN_RUNTIME_DIR` (Qwen Code's own override), else
 * `~/.qwen`.
 */
const qwenRuntimeDir = (env: Env): string => {
  const fromEnv = env.QWEN_RUNTIME_DIR?.trim();
  return fromEnv ? path.resolve(expandHome(fromEnv, env)) : path.join(homeDir(env), '.qwen');
};

/** `projects/<project>/chats/<session id>.jsonl`, one folder per working directory. */
export const qwenProjectsDir = (env: Env): string => path.join(qwenRuntimeDir(env), 'projects');

export const QWEN_TREE_DEPTH = 2;

/** The session id of a chat file (its stem), else undefined. */
export const qwenIdFromFile = (projectsDir: string, file: string): string | undefined => {
  const found = jsonlBelow(projectsDir, file);
  return found && found.parts.length === 3 && found.parts[1] === 'chats' ? found.stem : undefined;
};

/**
 * `tmp/<sha256 of the project path>/chats/session-<time>-<id8>.json`: the single-document chats
 * Qwen Code wrote before its JSONL ones (as Gemini CLI did, which it forked).
 */
export const qwenTmpDir = (env: Env): string => path.join(qwenRuntimeDir(env), 'tmp');

export const QWEN_TMP_DEPTH = 2;

/** The provisional id (the file stem; the document names the session) of a single-document chat, else undefined. */
export const qwenChatDocumentId = (tmpDir: string, file: string): string | undefined => {
  if (!file.endsWith('.json')) return undefined;
  const parts = segmentsBelow(tmpDir, file);
  const name = parts?.[2];
  return parts?.length === 3 && parts[1] === 'chats' && name?.startsWith('session-') ? name.slice(0, -'.json'.length) : undefined;
};
