import { readdir, stat } from 'node:fs/promises';
import type { Config } from '../config/effective.js';
import type { Env } from '../config/paths.js';
import type { LimitAgent } from '../core/agents.js';
import { agentAllLocations } from '../sources/agents.js';

/** A place that holds something: a file with bytes, a folder with an entry. */
const holdsSomething = async (place: string): Promise<boolean> => {
  try {
    const info = await stat(place);
    return info.isDirectory() ? (await readdir(place)).length > 0 : info.size > 0;
  } catch {
    return false;
  }
};

/**
 * Where each limits agent keeps sessions on this machine, from the places its source reads: what
 * `limits` needs to tell a user who plainly uses an agent why it has no figures for it.
 */
export const sessionsAtOf =
  (config: Config, env: Env, platform: NodeJS.Platform) =>
  async (agent: LimitAgent): Promise<string | undefined> => {
    for (const location of agentAllLocations(agent, { config, env, platform })) {
      if (await holdsSomething(location.path)) return location.path;
    }
    return undefined;
  };
