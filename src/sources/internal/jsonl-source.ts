import { existsSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { Observable, type Subscription } from 'rxjs';
import type { Source } from '../contracts.js';
import type { SessionEvent } from '../../core/session.js';
import { COMPRESSED_SUFFIX, isCompressedTranscript } from './compressed.js';
import { createFileTracker } from './file-tracker.js';
import { nowAndAgainLater } from './again-later.js';
import { diagnostic, type JsonlAgentSpec, type WatchRoot } from './file-parser.js';
import type { SourceCtx } from './options.js';
import { firstPassReads } from './newest-first.js';
import { runPool } from './pool.js';
import { statAll } from './stat-all.js';
import type { ReadOptions } from './read-lines.js';
import { createSideFiles } from './side-files.js';
import { levelsBelow, walkFiles } from './walk.js';
import { watchTree, type TreeWatch } from './watch-tree.js';

/** chokidar and the OS coalesce bursts; one re-check after this delay catches the last write of a burst. */
export const RECHECK_MS = 150;
/**
 * Files written to recently are re-stat'ed this often while watching: a safety net under the
 * directory watches for events the OS coalesced or dropped (cheap: a handful of stats).
 */
const ACTIVE_RESTAT_MS = 2_000;
/** How long after its last event a file counts as recently written. */
const ACTIVE_WINDOW_MS = 120_000;
/** How often a root that does not exist yet is looked for (the agent may be installed later). */
export const MISSING_ROOT_POLL_MS = 2_000;
// Side files a first pass syncs at once (names: read before the transcripts).
const SCAN_CONCURRENCY = 64;
/** How often a first pass tells how far it is (a `progress` event), at most. */
const PROGRESS_EVERY_MS = 250;

/** A file a pass found, with its stat (undefined: gone, or it cannot be stat'ed). */
interface Found {
  readonly file: string;
  readonly info: Stats | undefined;
}

/** A file a pass must read: `mtimeMs`, the newest of what its read covers (a family: every file). */
interface Unread extends Found {
  readonly mtimeMs: number;
}

const sameStat = (a: Stats | undefined, b: Stats | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs);

export interface EngineOptions {
  readonly read?: ReadOptions;
}

/**
 * The generic JSONL source: discovery walk, optional warm start from the discovery cache, directory
 * watches, incremental reads. Agents plug in a `JsonlAgentSpec` (roots, which files are sessions,
 * a per-file line parser, optional side files); the engine owns everything stateful.
 *
 * Event order per session: `restore` | (`reset`) start events, line events..., `checkpoint` after
 * every read chunk; `removed` when its file goes. One `ready` after the first pass; with
 * `ctx.watch === false` the observable completes right after it.
 *
 * The first pass stats every file first, restores what the cache holds as it is, then reads the
 * rest newest first (newest-first.ts, shared by every source of the process), telling how far it
 * is with `progress` events: the sessions written last reach the fold first.
 *
 * @example A new JSONL agent is a spec and a parser (see claude/, codex/, pi/ for real ones):
 * ```ts
 * export const acme = createJsonlSource((ctx) => ({
 *   agent: 'acme',
 *   roots: [{ dir: path.join(homeDir(ctx.env), '.acme', 'sessions'), depth: 1 }],
 *   classify: (_root, file) => (file.endsWith('.jsonl') ? path.basename(file, '.jsonl') : undefined),
 *   createParser: (file, sessionId, resumed) => createAcmeParser(file, sessionId, resumed),
 * }));
 * ```
 */
export const createJsonlSource =
  (specFor: (ctx: SourceCtx) => JsonlAgentSpec, options: EngineOptions = {}): Source =>
  (ctx: SourceCtx) =>
    new Observable<SessionEvent>((subscriber) => {
      const spec = specFor(ctx);
      const { agent } = spec;
      const watch = ctx.watch !== false;
      const skipDir = spec.skipDir ?? (() => false);
      let closed = false;
      const emit = (event: SessionEvent): void => {
        if (!closed) subscriber.next(event);
      };
      const side = createSideFiles(spec.sideFiles);
      const tracker = createFileTracker({
        agent,
        createParser: spec.createParser,
        emit,
        cache: ctx.cache,
        sideMeta: side.metaFor,
        read: options.read,
        familyOf: spec.familyOf,
        twinRank: spec.twinRank,
        twinsOf: spec.twinsOf,
        readsWhole: spec.readsWhole,
      });
      const timers = new Map<string, Subscription>();
      let parking: Subscription | undefined;
      const watches: TreeWatch[] = [];
      const sideRoots = spec.sideFiles?.roots ?? [];

      const classify = (file: string): string | undefined => {
        for (const root of spec.roots) {
          const level = levelsBelow(root.dir, path.dirname(file));
          if (level >= 0 && level <= root.depth) {
            const id = spec.classify(root.dir, file);
            if (id !== undefined) return id;
          }
        }
        return undefined;
      };

      const refreshSide = async (file: string): Promise<void> => {
        const changed = await side.refresh(file);
        // Only sessions with a transcript: a name alone must not conjure a session.
        for (const [sessionId, patch] of changed) tracker.applyMeta(sessionId, patch);
      };

      let firstPassDone = false;
      /** `known`: stats a discovery pass just took (the tracker need not take them again). */
      const syncPath = async (file: string, known?: Stats): Promise<void> => {
        if (closed) return;
        try {
          if (spec.sideFiles?.matches(file)) await refreshSide(file);
          else {
            const sessionId = classify(file);
            await tracker.sync(file, sessionId, known);
            // A plain transcript that went may have left a compressed twin (compressed.ts) that
            // no event announced: it is the transcript now.
            const twin = `${file}${COMPRESSED_SUFFIX}`;
            if (sessionId !== undefined && !isCompressedTranscript(file) && !tracker.isTrackedFile(file) && !tracker.isTrackedFile(twin) && existsSync(twin)) {
              await tracker.sync(twin, classify(twin));
            }
          }
        } catch (error) {
          emit(diagnostic(agent, 'E_READ', `cannot read ${file}: ${(error as Error).message}`, { path: file }));
        }
        // Once watching, a read that grew the buffer (a transcript replaced and read again from its
        // first byte) gives it back: a monitor runs all day on appends of a few KB.
        if (firstPassDone) tracker.trim();
      };

      const recentlyWritten = new Map<string, number>();
      const onPath = (file: string): void => {
        recentlyWritten.set(file, ctx.now());
        nowAndAgainLater(timers, file, ctx.scheduler, RECHECK_MS, () => void syncPath(file));
      };

      const unreadableDir = (dir: string, error: NodeJS.ErrnoException): void =>
        emit(diagnostic(agent, 'E_READ', `cannot read directory ${dir}: ${error.code ?? error.message} (its sessions are not shown)`, { path: dir }));

      /** Every file below `dir` (within the root's depth) with its stat. */
      const discover = async (root: WatchRoot, dir = root.dir): Promise<Found[]> => {
        const depth = root.depth - levelsBelow(root.dir, dir);
        if (depth < 0) return [];
        const files = await walkFiles(dir, depth, skipDir, unreadableDir, ctx.cache);
        // Every stat (stat-all.ts), then one synchronous loop restores the files the cache holds
        // as they are: a warm start is these stats and one fold batch.
        const infos = await statAll(files);
        return files.map((file, i) => ({ file, info: infos[i] }));
      };

      // Transcripts a one-shot window leaves unread (`readSince`): their cache rows stay.
      const skipped = new Set<string>();
      /** Last written before `readSince`, and so is the session it feeds, if another (`spec.feeds`). */
      const tooOld = (file: string, info: Stats, statOf: (file: string) => Stats | undefined): boolean => {
        const since = ctx.readSince;
        if (since === undefined || info.mtimeMs >= since) return false;
        const fed = spec.feeds?.(file);
        if (fed === undefined) return true;
        if (fed === true) return false;
        return (statOf(fed)?.mtimeMs ?? 0) < since;
      };

      /**
       * Restores the files the cache holds as they are, in one synchronous loop (one fold batch),
       * and returns the rest to read, each with the newest mtime of what its read covers.
       */
      const primeFound = (found: readonly Found[]): Unread[] => {
        const rest: Unread[] = [];
        let byFile: Map<string, Stats | undefined> | undefined;
        const statOf = (file: string): Stats | undefined => {
          byFile ??= new Map(found.map((entry) => [entry.file, entry.info]));
          if (byFile.has(file)) return byFile.get(file);
          try {
            return statSync(file, { throwIfNoEntry: false });
          } catch {
            return undefined;
          }
        };
        // Files that continue one session (file-family.ts), by family: primed and read together.
        const families = new Map<string, { file: string; sessionId: string; info: Stats }[]>();
        for (const { file, info } of found) {
          const sessionId = info === undefined || spec.sideFiles?.matches(file) ? undefined : classify(file);
          if (info !== undefined && sessionId !== undefined) {
            const family = spec.familyOf?.(file);
            if (family) {
              const members = families.get(family.key);
              if (members) members.push({ file, sessionId, info });
              else families.set(family.key, [{ file, sessionId, info }]);
              continue;
            }
            if (tooOld(file, info, statOf) || (ctx.changedOnly === true && tracker.untouched(file, info))) {
              skipped.add(file);
              continue;
            }
          }
          const primed = info !== undefined && sessionId !== undefined && tracker.prime(file, info, sessionId);
          if (!primed) rest.push({ file, info, mtimeMs: info?.mtimeMs ?? 0 });
        }
        for (const members of families.values()) {
          const [first] = members;
          if (!first) continue;
          if (members.every(({ file, info }) => tooOld(file, info, statOf))) {
            for (const { file } of members) skipped.add(file);
            continue;
          }
          const primed = members.length === 1 ? tracker.prime(first.file, first.info, first.sessionId) : tracker.primeFamily(members);
          // One sync of any file of a family reads all of it, in order.
          const mtimeMs = Math.max(...members.map(({ info }) => info.mtimeMs));
          if (!primed) rest.push({ file: first.file, info: members.length === 1 ? first.info : undefined, mtimeMs });
        }
        return rest;
      };

      /** Reads `rest` newest first (newest-first.ts); `onRead` after each. */
      const readNewestFirst = async (rest: readonly Unread[], onRead: () => void = () => undefined): Promise<void> => {
        await Promise.all(
          rest.map(({ file, info, mtimeMs }) =>
            firstPassReads.run(mtimeMs, async () => {
              await syncPath(file, info);
              onRead();
            }),
          ),
        );
      };

      const scan = async (root: WatchRoot, dir = root.dir): Promise<void> => {
        const found = await discover(root, dir);
        if (closed) return;
        await readNewestFirst(primeFound(found));
      };

      const startWatching = async (root: WatchRoot): Promise<void> => {
        const tree = watchTree(root.dir, root.depth, skipDir, {
          onPath,
          // Files created before the directory watch existed produce no event: scan the newcomer,
          // and once more a little later for files written between that scan and the watch starting.
          onDirAdded: (dir) =>
            nowAndAgainLater(timers, `dir:${dir}`, ctx.scheduler, RECHECK_MS, () => {
              if (!closed) void scan(root, dir);
            }),
          onDirRemoved: (dir) => {
            for (const file of tracker.trackedFiles()) if (levelsBelow(dir, file) > 0) void syncPath(file);
          },
          onError: (message) => emit(diagnostic(agent, 'E_WATCH', message, { path: root.dir })),
        });
        watches.push(tree);
        await tree.ready;
      };

      const pollUntilExists = (root: WatchRoot, onFound: () => Promise<void>): void => {
        const key = `root:${root.dir}`;
        timers.set(
          key,
          ctx.scheduler.schedule(() => {
            timers.delete(key);
            if (closed) return;
            if (existsSync(root.dir)) void onFound();
            else pollUntilExists(root, onFound);
          }, MISSING_ROOT_POLL_MS),
        );
      };

      const watchRoot = async (root: WatchRoot, scanAfter: boolean): Promise<void> => {
        if (!existsSync(root.dir)) {
          pollUntilExists(root, () => watchRoot(root, true));
          return;
        }
        if (!closed) await startWatching(root);
        if (scanAfter) await scan(root);
      };

      /** A first pass's `progress`: at most every PROGRESS_EVERY_MS, and once all is read. */
      const progressOf = (total: number, done: number): (() => void) => {
        let read = done;
        let toldAt = ctx.now();
        emit({ type: 'progress', agent, read, total });
        return () => {
          read += 1;
          const now = ctx.now();
          if (read < total && now - toldAt < PROGRESS_EVERY_MS) return;
          toldAt = now;
          emit({ type: 'progress', agent, read, total });
        };
      };

      /**
       * Once the watches are up: what changed between the first pass's look at a file and the
       * watch of its directory (no event tells of it) is synced now, as a new file or a file that
       * went is. Everything later comes as an event.
       */
      const catchUp = async (sideSeen: ReadonlyMap<string, Stats | undefined>): Promise<void> => {
        for (const root of sideRoots) {
          const found = (await discover(root)).filter(({ file }) => spec.sideFiles?.matches(file));
          const changed = found.filter(({ file, info }) => !sameStat(sideSeen.get(file), info));
          await runPool(changed, SCAN_CONCURRENCY, ({ file }) => syncPath(file));
        }
        const seen = new Set<string>();
        const again: Found[] = [];
        for (const root of spec.roots) {
          for (const entry of await discover(root)) {
            seen.add(entry.file);
            const { file, info } = entry;
            // Unchanged files, and files that are no transcript and were not read the first time, have nothing to say.
            if (info !== undefined && tracker.isCurrent(file, info)) continue;
            if (info === undefined || spec.sideFiles?.matches(file) || tracker.isTrackedFile(file) || classify(file) !== undefined) again.push(entry);
          }
        }
        for (const file of tracker.trackedFiles()) if (!seen.has(file)) again.push({ file, info: undefined });
        await runPool(again, SCAN_CONCURRENCY, ({ file, info }) => syncPath(file, info));
      };

      const firstPass = async (): Promise<void> => {
        // The watches are set up while the pass reads (setting them up lists every directory
        // too: waiting for it held back every read); `catchUp` covers the time in between.
        const watching = watch ? Promise.all([...sideRoots, ...spec.roots].map((root) => watchRoot(root, false))) : undefined;
        // Awaited below; a pass that fails before then reports its own error, not this one.
        watching?.catch(() => undefined);
        // Side files first, so every transcript opens with its name already known.
        const sideSeen = new Map<string, Stats | undefined>();
        for (const root of sideRoots) {
          const found = (await discover(root)).filter(({ file }) => spec.sideFiles?.matches(file));
          for (const { file, info } of found) sideSeen.set(file, info);
          await runPool(found, SCAN_CONCURRENCY, ({ file }) => syncPath(file));
        }
        const found: Found[] = [];
        for (const root of spec.roots) found.push(...(await discover(root)));
        if (closed) return;
        const primedBefore = tracker.trackedFiles().length;
        const rest = primeFound(found);
        const primed = tracker.trackedFiles().length - primedBefore;
        await readNewestFirst(rest, progressOf(primed + rest.length, primed));
        if (watching) {
          await watching;
          if (closed) return;
          await catchUp(sideSeen);
        }
        if (closed) return;
        // Rows of transcripts under our roots that the scan did not find were deleted meanwhile.
        // Every file this pass found asked for its row: the rows nobody asked for are the
        // candidates (a transcript too old for a one-shot window asked for nothing).
        ctx.cache?.pruneUnasked(agent, (file) => tracker.isTrackedFile(file) || skipped.has(file) || !spec.roots.some((root) => levelsBelow(root.dir, file) > 0));
        if (spec.sideFiles) ctx.cache?.forgetUnaskedSideTexts(agent);
        // Listings of the directories the walks did not visit: deleted meanwhile.
        for (const root of [...sideRoots, ...spec.roots]) ctx.cache?.forgetUnaskedListings(root.dir);
        tracker.trim();
        firstPassDone = true;
        emit({ type: 'ready', agent });
        if (!watch) subscriber.complete();
        else {
          timers.set('restat', ctx.scheduler.schedule(restatRecent, ACTIVE_RESTAT_MS));
          parking = ctx.restorable$?.subscribe((states) => states.forEach(tracker.park));
        }
      };

      function restatRecent(this: { schedule: (state?: undefined, delay?: number) => void }): void {
        const now = ctx.now();
        for (const [file, at] of recentlyWritten) {
          if (now - at > ACTIVE_WINDOW_MS) recentlyWritten.delete(file);
          else void syncPath(file);
        }
        this.schedule(undefined, ACTIVE_RESTAT_MS);
      }

      firstPass().catch((error: unknown) => {
        emit(diagnostic(agent, 'E_READ', `discovery failed: ${(error as Error).message}`));
        emit({ type: 'ready', agent });
        if (!watch) subscriber.complete();
      });

      return () => {
        closed = true;
        parking?.unsubscribe();
        for (const timer of timers.values()) timer.unsubscribe();
        timers.clear();
        for (const tree of watches) void tree.close().catch(() => undefined);
      };
    });
