import { statSync } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { from, interval, Observable, Subscription } from 'rxjs';
import type { Source } from '../contracts.js';
import type { SessionEvent } from '../../core/session.js';
import { diagnostic } from '../internal/file-parser.js';
import { restoredDiagnostics } from '../internal/kept-diagnostics.js';
import { createUnknownRecords, type UnknownRecords } from '../internal/unknown-records.js';
import type { SourceCtx } from '../internal/options.js';
import { watchTree, type TreeWatch } from '../internal/watch-tree.js';
import { createDirtyQueue } from './dirty-queue.js';
import { createAmpExportSync, scheduleRefresh } from './export-sync.js';
import { parseAmpThread } from './parse.js';
import { ampThreadsDir, isThreadFile } from './paths.js';

/** While `threads/` is not watched (absent, or its watch died): look for it this often (one readdir). */
export const AMP_DIR_POLL_MS = 3_000;
/**
 * While it is watched: re-list and re-stat every thread this often, a safety net for a write a
 * coalesced watch event hid. Rare on purpose: each pass stats every thread, and an idle monitor
 * should cost nothing (a pass every few seconds was most of an idle monitor's CPU).
 */
export const AMP_RESCAN_MS = 60_000;
/** A thread document is read whole; anything larger is reported instead of loaded. */
export const AMP_MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

interface Seen {
  readonly size: number;
  readonly mtimeMs: number;
  /** The session this file currently shows, if any (empty and unreadable threads show none). */
  readonly sessionId: string | undefined;
}

export interface AmpSourceOptions {
  /** Run the `amp threads export` refresh when `amp` is on PATH (default true; watch mode only). */
  readonly exportSync?: boolean;
  readonly maxDocumentBytes?: number;
}

const errorCode = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;

const mtimeOf = (file: string): number => {
  try {
    return statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Infinity;
  } catch {
    return Infinity;
  }
};

/** Files by mtime, newest first (one that cannot be stat'ed first: its read says why). */
const newestFirst = (files: readonly string[]): string[] =>
  files
    .map((file) => ({ file, at: mtimeOf(file) }))
    .sort((a, b) => b.at - a.at || 0)
    .map(({ file }) => file);

/**
 * Amp threads (`threads/T-<uuid>.json`) are JSON documents Amp rewrites in place. Every change
 * re-reads the whole document and replays it (`reset`, the events, a `checkpoint` at the file
 * size); a document caught mid-rewrite is a diagnostic and the previous state stays until the
 * next complete version.
 */
export const createAmpSource =
  (options: AmpSourceOptions = {}): Source =>
  (baseCtx) =>
    new Observable<SessionEvent>((subscriber) => {
      const ctx = baseCtx as SourceCtx;
      const threadsDir = ampThreadsDir(ctx.env);
      const maxBytes = options.maxDocumentBytes ?? AMP_MAX_DOCUMENT_BYTES;
      const seen = new Map<string, Seen>();
      // Per thread file, across its rewrites: an unknown kind (or a bad message) is one finding, not one per save.
      const reported = new Map<string, UnknownRecords>();
      const badReported = new Map<string, number>();
      const reporterOf = (file: string): UnknownRecords => {
        let r = reported.get(file);
        if (!r) reported.set(file, (r = createUnknownRecords('amp', 'Amp')));
        return r;
      };
      const subscriptions = new Subscription();
      let watcher: TreeWatch | undefined;
      let firstPass = true;
      const emit = (event: SessionEvent): void => {
        if (!subscriber.closed) subscriber.next(event);
      };
      const removed = (sessionId: string | undefined): void => {
        if (sessionId) emit({ type: 'removed', agent: 'amp', sessionId });
      };

      /** First sight of a thread the cache holds at exactly this size and mtime: restored, nothing read. */
      const restoreCached = (file: string, info: { size: number; mtimeMs: number }): boolean => {
        const cached = ctx.cache?.get(file);
        if (!cached || cached.agent !== 'amp' || cached.size !== info.size || cached.mtimeMs !== info.mtimeMs) return false;
        // A pass that wants only changes (SourceCtx.changedOnly) leaves it as the cache holds it.
        if (ctx.changedOnly === true) return true;
        emit({ type: 'restore', agent: 'amp', sessionId: cached.sessionId, state: cached.state });
        // What reading the document found is counted again, as a cold start counts it.
        for (const event of restoredDiagnostics('amp', cached.state.checkpoint?.diagnostics, { sessionId: cached.sessionId, path: file })) emit(event);
        seen.set(file, { size: info.size, mtimeMs: info.mtimeMs, sessionId: cached.sessionId });
        return true;
      };

      const processFile = async (file: string): Promise<void> => {
        const before = seen.get(file);
        let handle;
        try {
          // The periodic rescan lands here for every thread: an unchanged one costs one stat,
          // synchronous (a thread pool round trip per thread cost a warm start more than the stat).
          const quick = statSync(file);
          if (before && before.size === quick.size && before.mtimeMs === quick.mtimeMs) return;
          // A one-shot window leaves a thread last written before it unread: its session cannot be in it.
          if (!before && firstPass && ctx.readSince !== undefined && quick.mtimeMs < ctx.readSince) return;
          // A warm start restores a thread the cache holds as it is on that stat alone (no open).
          if (!before && firstPass && restoreCached(file, quick)) return;
          handle = await open(file, 'r');
        } catch (error) {
          if (errorCode(error) !== 'ENOENT') throw error;
          seen.delete(file);
          removed(before?.sessionId);
          return;
        }
        try {
          const info = await handle.stat();
          if (before && before.size === info.size && before.mtimeMs === info.mtimeMs) return;
          const record = (sessionId: string | undefined): void => {
            seen.set(file, { size: info.size, mtimeMs: info.mtimeMs, sessionId });
          };
          if (info.size > maxBytes) {
            emit(diagnostic('amp', 'E_OVERSIZED_LINE', `thread document of ${info.size} bytes is over the ${maxBytes}-byte limit; skipped`, { path: file }));
            record(before?.sessionId);
            return;
          }
          const text = (await handle.readFile()).toString('utf8');
          const result = parseAmpThread(text, file);
          if (result.kind === 'invalid') {
            const code = result.message.startsWith('not a JSON') ? 'E_JUNK_LINE' : 'E_SCHEMA';
            emit(diagnostic('amp', code, result.message, { path: file, ...(before?.sessionId ? { sessionId: before.sessionId } : {}) }));
            record(before?.sessionId);
            return;
          }
          if (before?.sessionId && before.sessionId !== result.sessionId) removed(before.sessionId);
          if (result.kind === 'empty') {
            if (before?.sessionId === result.sessionId) removed(result.sessionId);
            record(undefined);
            return;
          }
          for (const event of result.events) emit(event);
          const where = { sessionId: result.sessionId, path: file, ...(result.version ? { version: result.version } : {}) };
          for (const u of result.unknown) for (const event of reporterOf(file).once(u.key, u.what, where)) emit(event);
          if (result.badMessages > 0 && badReported.get(file) !== result.badMessages) {
            emit(diagnostic('amp', 'E_SCHEMA', `${result.badMessages} message(s) of the thread did not match the expected shape and were skipped`, { path: file, sessionId: result.sessionId }));
          }
          badReported.set(file, result.badMessages);
          // What one read of this version finds (a cold start's count), kept for a warm start to count again.
          const diagnostics = { ...(result.unknown.length > 0 ? { E_UNKNOWN_RECORD: result.unknown.length } : {}), ...(result.badMessages > 0 ? { E_SCHEMA: 1 } : {}) };
          const checkpoint = { path: file, offset: info.size, size: info.size, mtimeMs: info.mtimeMs, ...(Object.keys(diagnostics).length > 0 ? { diagnostics } : {}) };
          emit({ type: 'checkpoint', agent: 'amp', sessionId: result.sessionId, checkpoint });
          record(result.sessionId);
        } finally {
          await handle.close();
        }
      };

      const queue = createDirtyQueue(processFile, (file, error) =>
        emit(diagnostic('amp', 'E_READ', `cannot read ${file}: ${(error as Error).message}`, { path: file })),
      );

      /** Marks every thread file and every file that disappeared; starts the watcher once `threads/` exists. */
      const rescan = async (): Promise<void> => {
        let names: string[] = [];
        let exists = true;
        try {
          names = await readdir(threadsDir);
        } catch (error) {
          if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR') throw error;
          exists = false;
        }
        const present = new Set(names.map((name) => path.join(threadsDir, name)).filter((file) => isThreadFile(threadsDir, file)));
        for (const file of seen.keys()) if (!present.has(file)) queue.mark(file);
        // The first pass reads the most recently written threads first: the sessions a user looks for.
        const order = firstPass ? newestFirst([...present]) : present;
        for (const file of order) queue.mark(file);
        if (exists) startWatcher();
      };

      const startWatcher = (): void => {
        if (watcher || ctx.watch === false || subscriber.closed) return;
        watcher = watchTree(threadsDir, 0, () => false, {
          onPath: (file) => {
            if (isThreadFile(threadsDir, file)) queue.mark(file);
          },
          onDirAdded: () => undefined,
          onDirRemoved: (dir) => {
            if (dir !== threadsDir) return;
            // The watch died with its directory; the next rescan starts a new one if it comes back.
            void watcher?.close();
            watcher = undefined;
            for (const file of seen.keys()) queue.mark(file);
          },
          onError: (message) => emit(diagnostic('amp', 'E_WATCH', message, { path: threadsDir })),
        });
      };

      const reportScanError = (error: unknown): void => emit(diagnostic('amp', 'E_READ', `cannot list ${threadsDir}: ${(error as Error).message}`, { path: threadsDir }));

      void (async () => {
        try {
          await rescan();
        } catch (error) {
          reportScanError(error);
        }
        await queue.idle();
        // NOTE: `ready` waits for the watch to be in place, so a write right after it is seen.
        await watcher?.ready;
        firstPass = false;
        emit({ type: 'ready', agent: 'amp' });
        if (ctx.watch === false) {
          subscriber.complete();
          return;
        }
        if (subscriber.closed) return;
        let lastFullScan = ctx.scheduler.now();
        subscriptions.add(
          interval(AMP_DIR_POLL_MS, ctx.scheduler).subscribe(() => {
            const now = ctx.scheduler.now();
            if (watcher && now - lastFullScan < AMP_RESCAN_MS) return;
            lastFullScan = now;
            void rescan().catch(reportScanError);
          }),
        );
        if (options.exportSync !== false) {
          const sync = createAmpExportSync(ctx.env, threadsDir, (message) => ctx.log.warn(`amp: ${message}`));
          const refresh = () => from(sync.run().catch((error: unknown) => (ctx.log.warn(`amp: ${(error as Error).message}`), [] as string[])));
          subscriptions.add(
            scheduleRefresh(refresh, ctx.scheduler).subscribe((ids) => ids.forEach((id) => queue.mark(path.join(threadsDir, `${id}.json`)))),
          );
        }
      })();

      return () => {
        subscriptions.unsubscribe();
        queue.close();
        void watcher?.close();
      };
    });

export const amp: Source = createAmpSource();
