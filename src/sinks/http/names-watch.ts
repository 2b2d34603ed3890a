import { watch } from 'node:fs';
import path from 'node:path';
import { asyncScheduler, debounceTime, from, Observable, switchMap, type SchedulerLike } from 'rxjs';
import { configDir, sessionNamesPath, type Env } from '../../config/paths.js';
import { loadSessionNames, type SessionNames } from '../../config/session-names.js';

/**
 * The names file as it changes on disk: a rename made by the TUI, the dashboard or another
 * agentwatch process reaches the API (and its SSE clients) at once. The directory is watched,
 * not the file, because every write is an atomic rename that replaces the file's inode.
 * Cold; unsubscribing closes the watcher. An unreadable file emits nothing (the loader reports it).
 */
export const watchSessionNames = (env: Env, scheduler: SchedulerLike = asyncScheduler, settleMs = 50): Observable<SessionNames> => {
  const file = path.basename(sessionNamesPath(env));
  const changed$ = new Observable<void>((subscriber) => {
    let watcher: ReturnType<typeof watch>;
    try {
      watcher = watch(configDir(env), (_event, name) => {
        if (name === null || name === file) subscriber.next();
      });
    } catch {
      // No config directory to watch: the names can then only change through this process.
      subscriber.complete();
      return undefined;
    }
    watcher.on('error', () => subscriber.complete());
    return () => watcher.close();
  });
  return changed$.pipe(
    debounceTime(settleMs, scheduler),
    switchMap(() => from(loadSessionNames(env))),
    switchMap((loaded) => (loaded.problem ? [] : [loaded.names])),
  );
};
