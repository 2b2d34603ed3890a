import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/**
 * Calls `onChange` when a SQLite database or its journal changes: the agent committed something.
 * Watches the directory (the database, `-wal` and `-journal` files may not exist yet, and SQLite
 * replaces some of them), filtered to those names. Returns a closer, or `undefined` when the
 * directory cannot be watched (missing: the agent is not installed yet); the periodic poll stays
 * the fallback either way.
 */
export const watchDatabase = (dbPath: string, onChange: () => void, onError: (error: Error) => void = () => undefined): (() => void) | undefined => {
  const dir = path.dirname(dbPath);
  const base = path.basename(dbPath);
  const names = new Set([base, `${base}-wal`, `${base}-journal`]);
  let watcher: FSWatcher;
  try {
    watcher = watch(dir, { persistent: false }, (_event, name) => {
      // Some platforms give no name: then any change in the directory counts.
      if (name === null || names.has(name.toString())) onChange();
    });
  } catch {
    return undefined;
  }
  watcher.on('error', onError);
  return () => watcher.close();
};
