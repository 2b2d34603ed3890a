import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { loadSessionNames, type NamesLoad } from '../../config/session-names.js';
import { configDir, sessionNamesPath, type Env } from '../../config/paths.js';

/**
 * Custom names are renamed from any interface (the API, the dashboard, another TUI): watch the
 * config directory and re-read `session-names.json` when it changes. A missing directory or a
 * failing watcher only means names refresh on our own renames.
 */
export const watchNames = (env: Env, onNames: (load: NamesLoad) => void): (() => void) => {
  const file = path.basename(sessionNamesPath(env));
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(configDir(env), { persistent: false }, (_event, name) => {
      if (name === null || name.toString() === file) void loadSessionNames(env).then(onNames, () => undefined);
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    watcher = undefined;
  }
  return () => watcher?.close();
};
