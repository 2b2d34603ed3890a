import { existsSync, readFileSync } from 'node:fs';
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

/** Oh My Pi's profile names; another value makes it fall back to the default profile. */
const OMP_PROFILE_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * Where Oh My Pi (`omp`, a fork of pi that writes pi's session format) keeps its sessions:
 * `~/<$PI_CONFIG_DIR or .omp>/agent/sessions`, below `profiles/<name>/` when `$OMP_PROFILE` (else
 * `$PI_PROFILE`) names a profile, and `$XDG_DATA_HOME/omp[/profiles/<name>]/sessions` instead once
 * omp moved its data there (that folder exists). Undefined when `$PI_CODING_AGENT_DIR` is set:
 * omp then writes to that directory, which is pi's and already read.
 */
export const ompSessionsDir = (env: Env): string | undefined => {
  if (env.PI_CODING_AGENT_DIR?.trim()) return undefined;
  const named = (env.OMP_PROFILE ?? env.PI_PROFILE)?.trim();
  const profile = named && named !== 'default' && OMP_PROFILE_NAME.test(named) && !named.endsWith('.') ? named : undefined;
  const below = (root: string): string => (profile ? path.join(root, 'profiles', profile) : root);
  const xdgData = env.XDG_DATA_HOME?.trim();
  if (xdgData && existsSync(below(path.join(xdgData, 'omp')))) return path.join(below(path.join(xdgData, 'omp')), 'sessions');
  return path.join(below(path.join(homeDir(env), env.PI_CONFIG_DIR || '.omp')), 'agent', 'sessions');
};

/**
 * The folders of a session tree that hold sessions: pi's `--<cwd>--`; omp's `-<cwd below the
 * home>`, `-tmp-<...>` and `home-`, `tmp-` or `abs-<name>-<hash>`; and `subagent-artifacts`.
 */
export const isPiSessionFolder = (name: string): boolean => name === 'subagent-artifacts' || name.startsWith('-') || /^(home|tmp|abs)-/.test(name);

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
 * Where pi's sessions are: the trees of `<agent dir>/sessions` and of Oh My Pi's sessions
 * directory, and the flat custom directory when one is set and differs (read from the environment
 * and pi's global settings now: a change takes a restart, as for pi itself). The source, the
 * search index and the "where I looked" messages share it.
 */
export const piSessionRoots = (env: Env): { readonly trees: readonly string[]; readonly flat: string | undefined } => {
  const dir = piSessionsDir(env);
  const omp = ompSessionsDir(env);
  const custom = piCustomSessionsDir(env, readPiSettings(env));
  const trees = omp !== undefined && omp !== dir ? [dir, omp] : [dir];
  return { trees, flat: custom !== undefined && !trees.includes(custom) ? custom : undefined };
};

/** The directories of piSessionRoots as a list: the trees, and the custom one when set. */
export const piSessionDirs = (env: Env): string[] => {
  const { trees, flat } = piSessionRoots(env);
  return flat ? [...trees, flat] : [...trees];
};
