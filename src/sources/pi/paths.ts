import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expandHome, homeDir, type Env } from '../../config/paths.js';
import { parseJson } from '../internal/skim.js';
import { jsonlBelow } from '../internal/walk.js';

/** pi's agent directory: `$PI_CODING_AGENT_DIR` (pi's own override), else `~/.pi/agent`. */
const piAgentDir = (env: Env): string => {
  const agentDir = env.PI_CODING_AGENT_DIR?.trim();
  return agentDir ? path.resolve(agentDir) : path.join(homeDir(env), '.pi', 'agent');
};

/** `<agent dir>/sessions`: the default home of sessions, one `--<cwd>--` folder per working directory. */
export const piSessionsDir = (env: Env): string => path.join(piAgentDir(env), 'sessions');

/**
 * Where pi writes sessions instead of the default, when told to: `$PI_CODING_AGENT_SESSION_DIR`,
 * else `sessionDir` of the global `settings.json` (`settingsText`, its content when it exists).
 * pi keeps such a directory flat: the session files sit in it directly, with no `--<cwd>--`
 * folders. Undefined when neither is set (or the setting is not an absolute or `~/` path).
 */
export const piCustomSessionsDir = (env: Env, settingsText: string | undefined): string | undefined => {
  const fromEnv = env.PI_CODING_AGENT_SESSION_DIR?.trim();
  if (fromEnv) return path.resolve(expandHome(fromEnv, env));
  if (settingsText === undefined) return undefined;
  const setting = (parseJson(settingsText) as { sessionDir?: unknown } | null | undefined)?.sessionDir;
  if (typeof setting !== 'string' || setting.trim() === '') return undefined;
  const dir = expandHome(setting.trim(), env);
  return path.isAbsolute(dir) ? path.normalize(dir) : undefined;
};

/** `--<cwd>--/<file>.jsonl`, and sub-agent runs below `--<cwd>--/subagent-artifacts/`. */
export const PI_TREE_DEPTH = 2;

export type PiFileKind = { readonly kind: 'main' | 'subagent'; readonly sessionId: string };

/**
 * pi's session id is the file-name stem (`<iso-ts>_<uuid>`; docs/formats/pi.md). `flat`: a
 * custom session directory (piCustomSessionsDir), whose session files sit in it directly.
 */
export const classifyPiFile = (sessionsDir: string, file: string, flat = false): PiFileKind | undefined => {
  const found = jsonlBelow(sessionsDir, file);
  if (!found) return undefined;
  const { parts, stem: sessionId } = found;
  if (flat) return parts.length === 1 ? { kind: 'main', sessionId } : undefined;
  if (parts.length === 2) return { kind: 'main', sessionId };
  if (parts.length === 3 && parts[1] === 'subagent-artifacts') return { kind: 'subagent', sessionId };
  return undefined;
};

/** The text of pi's global `settings.json`, or undefined when it cannot be read. */
const readPiSettings = (env: Env): string | undefined => {
  try {
    return readFileSync(path.join(piAgentDir(env), 'settings.json'), 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * Where pi's sessions are: `<agent dir>/sessions`, and the flat custom directory when one is set
 * and differs (read from the environment and pi's global settings now: a change takes a restart,
 * as for pi itself). The source, the search index and the "where I looked" messages share it.
 */
export const piSessionRoots = (env: Env): { readonly dir: string; readonly flat: string | undefined } => {
  const dir = piSessionsDir(env);
  const custom = piCustomSessionsDir(env, readPiSettings(env));
  return { dir, flat: custom !== undefined && custom !== dir ? custom : undefined };
};

/** The directories of piSessionRoots as a list: the default one, and the custom one when set. */
export const piSessionDirs = (env: Env): string[] => {
  const { dir, flat } = piSessionRoots(env);
  return flat ? [dir, flat] : [dir];
};
