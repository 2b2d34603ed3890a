import { existsSync, statSync } from 'node:fs';
import { Observable, type Subscription } from 'rxjs';
import type { Source } from '../contracts.js';
import type { SessionEvent } from '../../core/session.js';
import { createDirtyQueue } from '../amp/dirty-queue.js';
import { nowAndAgainLater } from '../internal/again-later.js';
import { diagnostic } from '../internal/file-parser.js';
import { MISSING_ROOT_POLL_MS, RECHECK_MS } from '../internal/jsonl-source.js';
import type { SourceCtx } from '../internal/options.js';
import type { ReadOptions } from '../internal/read-lines.js';
import { levelsBelow, walkFiles } from '../internal/walk.js';
import { watchTree, type TreeWatch } from '../internal/watch-tree.js';
import { grokSessionDirOf, grokSessionsDir, GROK_SESSION_DEPTH } from './paths.js';
import { createGrokReader } from './session-reader.js';

/** A file's mtime; Infinity when it cannot be stat'ed (its session is read first, and the read says why). */
const mtimeOf = (file: string): number => {
  try {
    return statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Infinity;
  } catch {
    return Infinity;
  }
};

/**
 * Grok CLI: one directory per session, `sessions/<pct-enc-cwd>/<session>/`, holding
 * `summary.json` and `chat_history.jsonl`. The directories are watched (never the files); every
 * change marks its session directory, which is then brought up to date on its own, one at a time.
 */
export const createGrokSource =
  (options: { readonly read?: ReadOptions } = {}): Source =>
  (baseCtx) =>
    new Observable<SessionEvent>((subscriber) => {
      const ctx = baseCtx as SourceCtx;
      const sessionsDir = grokSessionsDir(ctx.env);
      const timers = new Map<string, Subscription>();
      let watcher: TreeWatch | undefined;
      const emit = (event: SessionEvent): void => {
        if (!subscriber.closed) subscriber.next(event);
      };
      const reader = createGrokReader(emit, ctx.cache, options.read);
      const queue = createDirtyQueue(reader.sync, (dir, error) => emit(diagnostic('grok', 'E_READ', `cannot read ${dir}: ${(error as Error).message}`, { path: dir })));

      // Session directories a one-shot window left unread (`readSince`): what the cache holds of them stays.
      let skipped = 0;
      /**
       * Marks every session directory at or below `from`, the most recently written first (the
       * newest mtime of its files): the sessions a user looks for are read first. A one-shot
       * window leaves the directories whose every file was written before it unread.
       */
      const scan = async (from = sessionsDir): Promise<void> => {
        const level = levelsBelow(sessionsDir, from);
        if (level < 0 || level > GROK_SESSION_DEPTH) return;
        const files = await walkFiles(from, GROK_SESSION_DEPTH - level, undefined, undefined, ctx.cache);
        const newest = new Map<string, number>();
        for (const file of files) {
          const dir = grokSessionDirOf(sessionsDir, file);
          if (dir) newest.set(dir, Math.max(newest.get(dir) ?? 0, mtimeOf(file)));
        }
        const since = ctx.readSince;
        for (const [dir, at] of [...newest].sort((a, b) => b[1] - a[1] || 0)) {
          if (since !== undefined && at < since) skipped += 1;
          else queue.mark(dir);
        }
      };

      const onPath = (file: string): void => {
        const dir = grokSessionDirOf(sessionsDir, file);
        if (!dir) return;
        // One more look once the burst is over: coalesced watch events can hide the last write.
        nowAndAgainLater(timers, dir, ctx.scheduler, RECHECK_MS, () => queue.mark(dir));
      };

      const startWatching = async (): Promise<void> => {
        if (subscriber.closed) return;
        watcher = watchTree(sessionsDir, GROK_SESSION_DEPTH, () => false, {
          onPath,
          // Files written before the new directory's watch existed produce no event: scan the
          // newcomer, and once more a little later for files written between that scan and the
          // watch starting (a session directory gets its summary and transcript right after mkdir).
          onDirAdded: (dir) =>
            nowAndAgainLater(timers, `dir:${dir}`, ctx.scheduler, RECHECK_MS, () => {
              if (!subscriber.closed) void scan(dir);
            }),
          onDirRemoved: (dir) => {
            for (const tracked of reader.trackedDirs()) if (levelsBelow(dir, tracked) >= 0) queue.mark(tracked);
          },
          onError: (message) => emit(diagnostic('grok', 'E_WATCH', message, { path: sessionsDir })),
        });
        await watcher.ready;
      };

      const waitForRoot = (): void => {
        timers.set(
          'root',
          ctx.scheduler.schedule(() => {
            timers.delete('root');
            if (subscriber.closed) return;
            if (!existsSync(sessionsDir)) return waitForRoot();
            void startWatching().then(() => scan());
          }, MISSING_ROOT_POLL_MS),
        );
      };

      const firstPass = async (): Promise<void> => {
        const watch = ctx.watch !== false;
        if (watch && existsSync(sessionsDir)) await startWatching();
        else if (watch) waitForRoot();
        await scan();
        await queue.idle();
        reader.trim();
        // Every summary and directory the pass found was asked for: the rest are of sessions deleted meanwhile.
        if (!subscriber.closed && skipped === 0) {
          ctx.cache?.forgetUnaskedSideTexts('grok');
          ctx.cache?.forgetUnaskedListings(sessionsDir);
        }
        emit({ type: 'ready', agent: 'grok' });
        if (!watch) subscriber.complete();
      };

      firstPass().catch((error: unknown) => {
        emit(diagnostic('grok', 'E_READ', `discovery failed: ${(error as Error).message}`, { path: sessionsDir }));
        emit({ type: 'ready', agent: 'grok' });
        if (ctx.watch === false) subscriber.complete();
      });

      return () => {
        for (const timer of timers.values()) timer.unsubscribe();
        timers.clear();
        queue.close();
        void watcher?.close().catch(() => undefined);
      };
    });

export const grok: Source = createGrokSource();
