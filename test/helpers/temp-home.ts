import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface TempHome {
  readonly root: string;
  readonly home: string;
  /** An environment pointing HOME and every XDG directory inside `root`, nothing from the real one. */
  readonly env: Record<string, string>;
  readonly cleanup: () => Promise<void>;
}

/** A throwaway HOME with XDG dirs inside it; tests never see the real home directory. */
export const makeTempHome = async (prefix = 'agentwatch-test-'): Promise<TempHome> => {
  const root = await mkdtemp(path.join(tmpdir(), prefix));
  const home = path.join(root, 'home');
  await mkdir(home, { recursive: true });
  const env: Record<string, string> = {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    TZ: 'UTC',
    NO_COLOR: '1',
  };
  return { root, home, env, cleanup: () => rm(root, { recursive: true, force: true }) };
};
