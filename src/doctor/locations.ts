import { existsSync, promises as fs, constants } from 'node:fs';
import type { Location } from '../sources/descriptor.js';

type ConfigEntry = NonNullable<Location['configEntry']>;

/** What is at one place an agent's source reads. */
export interface LocationCheck {
  readonly path: string;
  /** found: readable; missing: nothing there (the agent is not installed, or has no sessions yet). */
  readonly state: 'found' | 'missing' | 'unreadable' | 'wrong type';
  readonly detail?: string;
  /**
   * The config entry this place comes from, when the user named it (a `claude_dirs` entry): then
   * nothing there is a mistake in the config, not an agent that is not installed.
   */
  readonly config_entry?: string;
  /**
   * The diagnostic that kept a place that is there from being read (`db_corrupt` for a database
   * that is not one): that diagnostic, listed with the agent's, is the problem to fix.
   */
  readonly diagnostic?: string;
}

/**
 * Checks a directory (or, for the SQLite agents, a database file) the way the source will open
 * it. As root every permission check passes: then only what the source itself reports tells.
 */
export const checkLocation = async (path: string, expect: 'directory' | 'file'): Promise<LocationCheck> => {
  let info;
  try {
    info = await fs.stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { path, state: 'missing' };
    return { path, state: 'unreadable', detail: `${code ?? 'error'}: ${(error as Error).message}` };
  }
  if (expect === 'directory' ? !info.isDirectory() : !info.isFile()) {
    return { path, state: 'wrong type', detail: `expected a ${expect}, found ${info.isDirectory() ? 'a directory' : 'a file'}` };
  }
  try {
    await fs.access(path, expect === 'directory' ? constants.R_OK | constants.X_OK : constants.R_OK);
  } catch (error) {
    return { path, state: 'unreadable', detail: `${(error as NodeJS.ErrnoException).code ?? 'error'}: permission denied` };
  }
  return { path, state: 'found' };
};

/**
 * A place inside a config entry the user named (a `claude_dirs` entry's `projects/` folder): each
 * entry must hold that folder, so one without it is the config's mistake, said with the entry.
 */
export const fromConfigEntry = (check: LocationCheck, from: ConfigEntry): LocationCheck => {
  const configEntry = `${from.key}: ${from.entry}`;
  if (check.state !== 'missing') return { ...check, config_entry: configEntry };
  const detail = existsSync(from.entry)
    ? `the ${from.key} entry ${from.entry} has no ${from.holds} folder; each entry must contain one`
    : `the ${from.key} entry ${from.entry} does not exist`;
  return { ...check, detail, config_entry: configEntry };
};

/**
 * What keeps an agent's sessions at one place from being read, as one line (doctor's problems,
 * the stderr of `sessions`), or undefined: a place that is simply not there is an agent that is
 * not installed, unless the config named it. A place whose `diagnostic` says why is that
 * diagnostic's problem, not a second one.
 */
export const locationProblem = (agent: string, check: LocationCheck): string | undefined => {
  if (check.diagnostic !== undefined) return undefined;
  if (check.state === 'unreadable' || check.state === 'wrong type') return `${agent}: ${check.path}: ${check.state}${check.detail ? ` (${check.detail})` : ''}`;
  if (check.state === 'missing' && check.config_entry !== undefined) return `config: ${check.detail ?? `${check.config_entry}: ${check.path} not found`}`;
  return undefined;
};
