import { promises as fs, constants } from 'node:fs';

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
