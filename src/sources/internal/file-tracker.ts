import { stat } from 'node:fs/promises';
import { changesNothing, type FileCheckpoint, type SessionMetaPatch } from '../../core/session.js';
import { statSync, type Stats } from 'node:fs';
import type { CachedFile } from './cache.js';
import { familyRestorePoint, resumableFrom, stampOf, untouchedSince } from './file-family.js';
import { diagnostic, type FileParser } from './file-parser.js';
import type { FileIdentity, FileTracker, FileTrackerDeps, Tracked } from './file-tracker-types.js';
import { createTrackedFiles } from './tracked-file.js';
import { addCounts } from './kept-diagnostics.js';
import { isMissing } from './missing.js';
import { hiddenTwins, isCompressedTranscript, readCompressedLines } from './compressed.js';
import type { LineItem } from './lines.js';
import { createScratch, readLinesFrom, type ReadOptions } from './read-lines.js';
import { createTrackedFamilies, mustRefold } from './tracked-families.js';
import { gluedRecords } from './glued-records.js';
import { MAX_DOCUMENT_BYTES, readWhole } from './whole-document.js';

/** The stateful shell around the pure parsers: one byte offset per file, serialised syncs. */
export const createFileTracker = (deps: FileTrackerDeps): FileTracker => {
  const { agent, emit } = deps;
  const tracked = new Map<string, Tracked>();
  // Cache entries `prime` took for files it left to `sync` (a cache row is handed out once).
  const primed = new Map<string, CachedFile | undefined>();
  const cachedEntry = (file: string): CachedFile | undefined => {
    if (!primed.has(file)) return deps.cache?.get(file);
    const entry = primed.get(file);
    primed.delete(file);
    return entry;
  };
  const fileOfSession = new Map<string, string>();
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();
  const families = createTrackedFamilies(deps);
  const { familyOf, syncKeyOf, membersOf } = families;
  const adoptTwins = (file: string, sessionId: string): boolean => families.adoptTwins(file, sessionId, (twin) => tracked.has(twin));
  const scratch = createScratch();
  const readOptions: ReadOptions = { ...deps.read, scratch };
  const parserOf = (t: Tracked): FileParser => (t.parser ??= t.makeParser());
  /**
   * What the state read from `t` is at: its offset in `t`, the family's files read before it as they
   * were read, and the diagnostics of all their records.
   */
  const checkpointOf = (t: Tracked): FileCheckpoint => {
    const cp = { path: t.file, offset: t.offset, size: Math.max(t.size, t.offset), mtimeMs: t.mtimeMs, ino: t.ino };
    const earlier = families.readBefore(t.file, tracked);
    let diagnostics = t.diagnostics;
    for (const read of earlier) if (read.diagnostics) diagnostics = diagnostics ? addCounts(read.diagnostics, diagnostics) : read.diagnostics;
    const withBefore = earlier.length > 0 ? { ...cp, before: earlier.map((read) => stampOf(read.file, read)) } : cp;
    return diagnostics ? { ...withBefore, diagnostics } : withBefore;
  };
  const emitCheckpoint = (t: Tracked): void => {
    t.announced = true;
    emit({ type: 'checkpoint', agent, sessionId: t.sessionId, checkpoint: checkpointOf(t) });
  };

  /**
   * `t`'s parser learned the session's id from a record (codex's session_meta) after a state was
   * sent under the id its file name gave (a first read that found no complete line yet, a restore
   * of one): that state, empty, is no session. Kept while another file still feeds it.
   */
  const renamed = (t: Tracked, was: string): void => {
    if (fileOfSession.get(was) === t.file) fileOfSession.delete(was);
    if (!t.announced || [...tracked.values()].some((other) => other !== t && other.sessionId === was)) return;
    emit({ type: 'removed', agent, sessionId: was });
  };

  /** Sends `patch` for the session `t` feeds, unless its known state already holds it; true when sent. */
  const sendMeta = (t: Tracked, patch: SessionMetaPatch | undefined): boolean => {
    if (patch === undefined || (t.known !== undefined && changesNothing(patch, t.known))) return false;
    t.known = undefined;
    emit({ type: 'meta', agent, sessionId: t.sessionId, patch });
    return true;
  };
  const applySideMeta = (t: Tracked): boolean => sendMeta(t, deps.sideMeta(t.sessionId));

  const { located, openFresh, resumeParser, restoreFrom, quietlyTracked } = createTrackedFiles(deps);

  const forget = (t: Tracked): void => {
    tracked.delete(t.file);
    if (fileOfSession.get(t.sessionId) === t.file) fileOfSession.delete(t.sessionId);
  };

  const open = (file: string, classifiedId: string | undefined, info: FileIdentity): { t: Tracked; restored: boolean } | undefined => {
    const { ino } = info;
    const cached = cachedEntry(file);
    if (cached && resumableFrom(cached, info, agent)) {
      return { t: restoreFrom(file, cached, ino), restored: true };
    }
    // The file shrank or was replaced while nobody watched: whatever the cache said about it is void.
    if (cached) emit({ type: 'reset', agent, sessionId: cached.sessionId });
    return classifiedId === undefined ? undefined : { t: openFresh(file, classifiedId, info), restored: false };
  };

  const readNew = async (t: Tracked, size: number, mtimeMs: number): Promise<void> => {
    t.known = undefined;
    t.size = size;
    t.mtimeMs = mtimeMs;
    const parser = parserOf(t);
    const onChunk = (items: readonly LineItem[], consumed: number | undefined): void => {
      for (const item of items) {
        if (t.line !== undefined) t.line += 1;
        if (item.kind === 'line') {
          for (const record of gluedRecords(item.bytes)) for (const event of parser.line(record)) emit(event.type === 'diagnostic' ? located(event, t) : event);
        } else {
          const skimmed = parser.oversized?.(item.head, item.tail, item.keys) ?? [];
          for (const event of skimmed) emit(event);
          const what = skimmed.length > 0 ? 'read from its first and last bytes only (type, time, tool ids)' : 'skipped';
          const message = `line of ${item.length} bytes ending at byte ${item.end} is over the line size cap; ${what}`;
          emit(located(diagnostic(agent, 'E_OVERSIZED_LINE', message, { sessionId: parser.sessionId(), path: t.file }), t));
        }
      }
      const was = t.sessionId;
      t.sessionId = parser.sessionId();
      if (t.sessionId !== was) renamed(t, was);
      if (consumed === undefined) return;
      t.offset = consumed;
      emitCheckpoint(t);
    };
    const outcome = isCompressedTranscript(t.file) ? await readCompressedLines(t.file, onChunk, readOptions) : await readLinesFrom(t.file, t.offset, size, onChunk, readOptions);
    t.offset = outcome.consumed;
    // Bytes that arrived during the read were read too; their mtime is newer than `mtimeMs`, so
    // the next stat sees a change and a warm start re-reads from the offset: nothing is lost.
    t.size = Math.max(size, outcome.end);
  };

  /**
   * A file read whole (file-parser.ts `readsWhole`): first sight restores what the cache holds of
   * it, whatever version that was; any change reads the file again and, when it is a complete
   * document, replaces the session's state with its replay (`reset`, the events, a checkpoint at
   * its size). A document caught mid-rewrite, or one over the size cap, is a diagnostic and the
   * state of the last complete read stays until the next version.
   */
  const syncDocument = async (file: string, classifiedId: string | undefined, info: Stats): Promise<void> => {
    let t = tracked.get(file);
    let opened = false;
    if (!t) {
      const cached = cachedEntry(file);
      if (cached?.agent === agent) t = restoreFrom(file, cached, info.ino);
      else if (classifiedId === undefined) return;
      else t = { ...openFresh(file, classifiedId, info), line: undefined };
      opened = true;
    }
    tracked.set(file, t);
    fileOfSession.set(t.sessionId, file);
    if (info.ino === t.ino && info.size === t.size && info.mtimeMs === t.mtimeMs) {
      if (opened && applySideMeta(t)) emitCheckpoint(t);
      return;
    }
    const cap = deps.read?.maxDocumentBytes ?? MAX_DOCUMENT_BYTES;
    const read = await readWhole(file, cap);
    const now = read.info;
    Object.assign(t, { known: undefined, ino: now.ino, size: now.size, mtimeMs: now.mtimeMs, offset: now.size });
    const parsed =
      read.kind === 'bytes'
        ? (parserOf(t).document?.(read.bytes) ?? { ok: false, events: [] })
        : { ok: false, events: [diagnostic(agent, 'E_OVERSIZED_LINE', `document of ${now.size} bytes is over the ${cap}-byte cap; not read`, { sessionId: t.sessionId, path: file })] };
    if (!parsed.ok) {
      for (const event of parsed.events) emit(located(event, t));
      // Only a session already shown keeps its state (and the count) at this version.
      if (t.announced) emitCheckpoint(t);
      return;
    }
    const was = t.sessionId;
    t.sessionId = parserOf(t).sessionId();
    if (t.sessionId !== was) renamed(t, was);
    fileOfSession.set(t.sessionId, file);
    emit({ type: 'reset', agent, sessionId: t.sessionId });
    for (const event of parsed.events) emit(located(event, t));
    applySideMeta(t);
    emitCheckpoint(t);
  };

  const syncOnce = async (file: string, classifiedId: string | undefined, known: Stats | undefined): Promise<void> => {
    let info;
    try {
      info = known ?? (await stat(file));
    } catch (error) {
      const t = tracked.get(file);
      if (isMissing(error)) {
        const family = familyOf(file);
        // Compressed or moved while we looked the other way: read again from the twin, not removed.
        if (t !== undefined && family !== undefined && adoptTwins(file, t.sessionId)) return syncFamily(family.key);
        families.drop(file);
        if (t) {
          forget(t);
          emit({ type: 'removed', agent, sessionId: t.sessionId });
        }
        return;
      }
      emit(diagnostic(agent, 'E_READ', `cannot stat ${file}: ${(error as Error).message}`, { path: file }));
      return;
    }
    if (!info.isFile()) return;
    if (deps.readsWhole?.(file) === true) return syncDocument(file, classifiedId, info);
    let t = tracked.get(file);
    let opened = false;
    let restored = false;
    if (!t) {
      const first = open(file, classifiedId, info);
      if (!first) return;
      ({ t, restored } = first);
      opened = true;
    } else if (info.ino !== t.ino || info.size < t.offset || (isCompressedTranscript(file) && (info.size !== t.size || info.mtimeMs !== t.mtimeMs))) {
      // Truncated, or another file renamed over this path (a compressed one is never appended
      // to: any change makes it another file): start again from its first byte.
      forget(t);
      emit({ type: 'reset', agent, sessionId: t.sessionId });
      t = openFresh(file, classifiedId ?? t.sessionId, info);
      opened = true;
    }
    tracked.set(file, t);
    fileOfSession.set(t.sessionId, file);
    const changed = info.size !== t.size || info.mtimeMs !== t.mtimeMs;
    // Bytes past the offset are an unfinished last line: read them again only once the file
    // changed (a warm start, or a re-stat, of an untouched file reads nothing).
    if (info.size > t.offset && (changed || (opened && !restored))) await readNew(t, info.size, info.mtimeMs);
    else {
      t.size = info.size;
      t.mtimeMs = info.mtimeMs;
    }
    // codex learns its id from the first record: keep the lookup current.
    fileOfSession.set(t.sessionId, file);
    // After the transcript's own records: a Desktop title / thread name beats an automatic summary title.
    const sideApplied = opened && applySideMeta(t);
    // A restore alone already carries its checkpoint; anything else that touched the state needs a new one.
    if ((opened && !restored) || changed || sideApplied) emitCheckpoint(t);
  };

  /**
   * Brings every file of a family up to date, in order. Growth of its newest read file is read
   * as any file's; anything else that changes what was read (an earlier file that changed or
   * went, the newest one replaced or truncated, a file that sorts before one already read) folds
   * the family again from the first byte of each file: the session is reset and its files read
   * in order, so nothing is counted twice or out of order.
   */
  const syncFamily = async (key: string): Promise<void> => {
    const statMembers = (files: readonly string[]): (Stats | undefined)[] =>
      files.map((file) => {
        try {
          const info = statSync(file, { throwIfNoEntry: false });
          return info?.isFile() ? info : undefined;
        } catch (error) {
          emit(diagnostic(agent, 'E_READ', `cannot stat ${file}: ${(error as Error).message}`, { path: file }));
          return undefined;
        }
      });
    let files = membersOf(key);
    let stats = statMembers(files);
    // A read file that went may have a twin on disk the watcher has not reported yet.
    let adopted = false;
    files.forEach((file, i) => {
      const t = tracked.get(file);
      if (stats[i] === undefined && t !== undefined) adopted = adoptTwins(file, t.sessionId) || adopted;
    });
    if (adopted) {
      files = membersOf(key);
      stats = statMembers(files);
    }
    // A twin of a file that is read instead (the compressed one of a plain file, an archived one of
    // a live one: compressed.ts) is not read; it stays in the family, to be read once the other
    // goes (Codex compressed or archived it meanwhile).
    const existing = new Set(files.filter((_, i) => stats[i] !== undefined));
    const hidden = hiddenTwins(files, (file) => existing.has(file), deps.twinRank);
    const infos = stats.map((info, i) => (hidden.has(files[i] as string) ? undefined : info));
    const refold = mustRefold(files, infos, tracked);
    const present = files.filter((_, i) => infos[i] !== undefined);
    if (present.length === 0) {
      // Every file of the session is gone: the usual removal (and out of the family), file by file.
      for (const file of files) await syncOnce(file, undefined, undefined);
      return;
    }
    // A file that went was read (and the family folds again below) or never was: either way it leaves.
    for (const file of files) if (!present.includes(file) && !hidden.has(file)) families.drop(file);
    if (refold) {
      const sessions = new Set<string>();
      for (const file of files) {
        const t = tracked.get(file);
        if (!t) continue;
        sessions.add(t.sessionId);
        forget(t);
      }
      for (const sessionId of sessions) emit({ type: 'reset', agent, sessionId });
      for (const file of present) primed.set(file, undefined);
    } else {
      // A file new to the family after one already read continues the session: read from its first byte.
      present.forEach((file, i) => {
        if (i > 0 && !tracked.has(file) && !primed.has(file)) primed.set(file, undefined);
      });
    }
    const classifiedIdOf = families.classifiedIdsOf(key);
    for (const file of present) await syncOnce(file, classifiedIdOf(file), undefined);
  };

  const sync = (file: string, classifiedId: string | undefined, known?: Stats): Promise<void> => {
    const family = familyOf(file);
    if (family) families.remember(family, file, classifiedId);
    const key = syncKeyOf(file);
    const current = running.get(key);
    if (current) {
      again.add(key);
      return current;
    }
    const run = (async () => {
      let vanished = 0;
      // Only the first pass may use the stats it was handed; every later one looks again.
      let stats = known;
      do {
        again.delete(key);
        try {
          if (family && families.size(family.key) > 1) await syncFamily(family.key);
          else await syncOnce(file, classifiedId, stats);
          stats = undefined;
        } catch (error) {
          // Gone between stat and open (deleted or renamed over): one more pass settles which.
          stats = undefined;
          if (isMissing(error) && vanished++ < 3) again.add(key);
          else emit(diagnostic(agent, 'E_READ', `cannot read ${file}: ${(error as Error).message}`, { path: file }));
        }
      } while (again.has(key));
    })().finally(() => running.delete(key));
    running.set(key, run);
    return run;
  };

  /** What `syncOnce` does for a file the cache holds as it is: restore, names from side files, done. */
  const restoreUntouched = (file: string, cached: CachedFile, info: Stats): void => {
    const t = restoreFrom(file, cached, info.ino);
    tracked.set(file, t);
    fileOfSession.set(t.sessionId, file);
    if (applySideMeta(t)) emitCheckpoint(t);
  };

  const prime = (file: string, info: Stats, sessionId: string): boolean => {
    const family = familyOf(file);
    if (family) families.remember(family, file, sessionId);
    if (tracked.has(file) || running.has(syncKeyOf(file)) || primed.has(file) || !info.isFile()) return false;
    const cached = deps.cache?.get(file);
    if (cached === undefined || !untouchedSince(cached, info, agent)) {
      primed.set(file, cached);
      return false;
    }
    restoreUntouched(file, cached, info);
    return true;
  };

  const primeFamily = (found: readonly { readonly file: string; readonly sessionId: string; readonly info: Stats }[]): boolean => {
    const [head] = found;
    const family = head && familyOf(head.file);
    if (!head || !family) return false;
    for (const { file, sessionId } of found) families.remember(familyOf(file) ?? family, file, sessionId);
    const files = membersOf(family.key);
    // Seen before (a directory added while watching): `sync` brings the family up to date.
    if (files.some((file) => tracked.has(file) || primed.has(file)) || running.has(syncKeyOf(head.file))) return false;
    const infoOf = new Map(found.map((f) => [f.file, f.info]));
    const hidden = hiddenTwins(files, (file) => infoOf.has(file), deps.twinRank);
    const members = files.flatMap((file) => {
      if (hidden.has(file)) return [];
      const info = infoOf.get(file);
      return info?.isFile() ? [{ file, info, cached: deps.cache?.get(file) }] : [];
    });
    const at = familyRestorePoint(members, agent);
    const restored = members[at]?.cached;
    let done = false;
    members.forEach(({ file, info, cached }, i) => {
      if (i < at && restored) tracked.set(file, quietlyTracked(file, restored.sessionId, info));
      else if (i === at && cached && i === members.length - 1 && untouchedSince(cached, info, agent)) {
        restoreUntouched(file, cached, info);
        done = true;
      } else primed.set(file, i === at ? cached : undefined);
    });
    return done;
  };

  const untouched = (file: string, info: Stats): boolean => {
    if (tracked.has(file) || primed.has(file) || running.has(syncKeyOf(file))) return false;
    const cached = deps.cache?.get(file);
    if (cached !== undefined && info.isFile() && untouchedSince(cached, info, agent)) return true;
    primed.set(file, cached);
    return false;
  };

  return {
    sync,
    prime,
    primeFamily,
    untouched,
    applyMeta: (sessionId, patch) => {
      const file = fileOfSession.get(sessionId);
      const t = file === undefined ? undefined : tracked.get(file);
      if (t && sendMeta(t, patch)) emitCheckpoint(t);
    },
    trackedFiles: () => [...tracked.keys()],
    isTrackedFile: (file) => tracked.has(file),
    isCurrent: (file, info) => {
      const t = tracked.get(file);
      return t !== undefined && !running.has(syncKeyOf(file)) && t.ino === info.ino && t.size === info.size && t.mtimeMs === info.mtimeMs;
    },
    trim: scratch.trim,
    park: (state) => {
      const cp = state.checkpoint;
      const t = cp ? tracked.get(cp.path) : undefined;
      if (t === undefined || !cp || t.parser === undefined || running.has(syncKeyOf(t.file)) || t.offset !== cp.offset || t.sessionId !== state.sessionId || state.agent !== agent) return false;
      t.parser = undefined;
      t.makeParser = () => resumeParser(t.file, state.sessionId, cp.offset, state);
      return true;
    },
  };
};
