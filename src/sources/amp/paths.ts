import path from 'node:path';
import { dataHome, type Env } from '../../config/paths.js';

/** Amp's data directory: `$XDG_DATA_HOME/amp`, else `~/.local/share/amp` (the same on macOS). */
export const ampDataDir = (env: Env): string => path.join(dataHome(env), 'amp');

export const ampThreadsDir = (env: Env): string => path.join(ampDataDir(env), 'threads');

/** Thread documents are the top-level `*.json` files of `threads/` (not the `.json.tmp` of an export in flight). */
export const isThreadFile = (threadsDir: string, file: string): boolean =>
  path.dirname(file) === threadsDir && file.endsWith('.json') && !path.basename(file).startsWith('.');
