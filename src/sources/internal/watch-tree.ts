import path from 'node:path';
import type { FSWatcher } from 'chokidar';

export interface TreeWatchHandlers {
  /** Something happened to this path inside a watched directory (created, appended, renamed over, deleted). */
  readonly onPath: (file: string) => void;
  readonly onDirAdded: (dir: string) => void;
  readonly onDirRemoved: (dir: string) => void;
  readonly onError: (message: string) => void;
}

export interface TreeWatch {
  /** Resolves once chokidar has set up every directory watch. */
  readonly ready: Promise<void>;
  readonly close: () => Promise<void>;
}

// Names that are certainly files, for the calls chokidar makes before it has stat'ed an entry.
const FILE_NAME = /\.(jsonl|json|md|txt|log|db|sqlite|db-wal|db-shm|zst)$/i;

/**
 * Watches the directories of a tree with chokidar, never its files. Per-file watching costs memory
 * and one inotify watch per transcript (docs/performance.md); one watch per directory
 * reports the same changes, because a directory watch sees every create, write, rename and delete
 * of its children. chokidar's `raw` event carries that (path, event) pair; chokidar itself keeps
 * the directory set current as project directories come and go.
 */
export const watchTree = (root: string, depth: number, skipDir: (name: string) => boolean, handlers: TreeWatchHandlers): TreeWatch => {
  let watcher: FSWatcher | undefined;
  let closed = false;
  // NOTE: chokidar is loaded on first use: one-shot commands never watch and never pay for it.
  const ready = import('chokidar').then(
    ({ watch }) =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        const w = watch(root, {
          depth,
          ignoreInitial: true,
          persistent: true,
          ignored: (p, stats) => {
            if (p === root) return false;
            if (stats) return !stats.isDirectory() || skipDir(path.basename(p));
            return FILE_NAME.test(p) || skipDir(path.basename(p));
          },
        });
        watcher = w;
        w.on('raw', (_event, evPath: string | null, details) => {
          const watched = typeof details === 'object' && details !== null && 'watchedPath' in details ? details.watchedPath : undefined;
          if (!evPath || typeof watched !== 'string') return;
          handlers.onPath(path.resolve(watched, evPath));
        });
        w.on('addDir', (dir: string) => handlers.onDirAdded(path.resolve(dir)));
        w.on('unlinkDir', (dir: string) => handlers.onDirRemoved(path.resolve(dir)));
        w.on('error', (error: unknown) => handlers.onError(`watching ${root}: ${error instanceof Error ? error.message : String(error)}`));
        w.once('ready', () => resolve());
      }),
  );
  return {
    ready,
    close: async () => {
      closed = true;
      await watcher?.close();
    },
  };
};
