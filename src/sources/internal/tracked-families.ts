import { statSync } from 'node:fs';
import type { FamilyKey, FileStat } from './file-family.js';

/**
 * The families of files a tracker knows (file-family.ts: files that continue one session one after
 * another), by family key: which files belong, in what order they are read, and the session id each
 * was classified under.
 */
export interface TrackedFamilies {
  readonly familyOf: (file: string) => FamilyKey | undefined;
  /** Adds `file` to its family (a later classified id replaces an unknown one). */
  readonly remember: (family: FamilyKey, file: string, classifiedId: string | undefined) => void;
  /** Takes `file` out of its family (the family goes with its last file). */
  readonly drop: (file: string) => void;
  /** What a sync of `file` runs under: the files of a family sync one at a time, as one. */
  readonly syncKeyOf: (file: string) => string;
  /** The files of a family in reading order. */
  readonly membersOf: (key: string) => string[];
  /** How many files the family holds. */
  readonly size: (key: string) => number;
  /** The session id each file of the family holds now was classified under. */
  readonly classifiedIdsOf: (key: string) => (file: string) => string | undefined;
  /** Of the files of `file`'s family read before it, those `tracked` holds, in order (none outside a family). */
  readonly readBefore: <T>(file: string, tracked: ReadonlyMap<string, T>) => T[];
  /**
   * True when a twin of `file` (file-parser.ts `twinsOf`) is on disk to read in its place; one not
   * yet known joins `file`'s family. Codex writes a twin before it deletes the file, but the
   * watcher can report the deletion first, or report the twin while the deletion is being synced:
   * without this the session would be removed, then added back.
   */
  readonly adoptTwins: (file: string, sessionId: string, isTracked: (file: string) => boolean) => boolean;
}

const isFileOnDisk = (file: string): boolean => {
  try {
    return statSync(file, { throwIfNoEntry: false })?.isFile() === true;
  } catch {
    return false;
  }
};

export const createTrackedFamilies = (deps: { readonly familyOf?: (file: string) => FamilyKey | undefined; readonly twinsOf?: (file: string) => readonly string[] }): TrackedFamilies => {
  // Family key -> its files known so far (file -> order and classified id).
  const families = new Map<string, Map<string, { readonly order: string; readonly classifiedId: string | undefined }>>();
  const familyOf = (file: string): FamilyKey | undefined => deps.familyOf?.(file);
  const remember = (family: FamilyKey, file: string, classifiedId: string | undefined): void => {
    let members = families.get(family.key);
    if (!members) families.set(family.key, (members = new Map()));
    if (!members.has(file) || classifiedId !== undefined) members.set(file, { order: family.order, classifiedId });
  };
  const membersOf = (key: string): string[] => {
    const members = families.get(key);
    if (!members) return [];
    return [...members].sort(([, a], [, b]) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0)).map(([file]) => file);
  };
  return {
    familyOf,
    remember,
    drop: (file) => {
      const family = familyOf(file);
      const members = family && families.get(family.key);
      if (!members) return;
      members.delete(file);
      if (members.size === 0) families.delete((family as FamilyKey).key);
    },
    syncKeyOf: (file) => {
      const family = familyOf(file);
      return family ? `family:${family.key}` : file;
    },
    membersOf,
    size: (key) => families.get(key)?.size ?? 0,
    classifiedIdsOf: (key) => {
      const members = families.get(key);
      return (file) => members?.get(file)?.classifiedId;
    },
    readBefore: (file, tracked) => {
      const family = familyOf(file);
      if (!family || (families.get(family.key)?.size ?? 0) < 2) return [];
      const earlier = [];
      for (const member of membersOf(family.key)) {
        if (member === file) break;
        const read = tracked.get(member);
        if (read) earlier.push(read);
      }
      return earlier;
    },
    adoptTwins: (file, sessionId, isTracked) => {
      const family = familyOf(file);
      if (family === undefined || deps.twinsOf === undefined) return false;
      let adopted = false;
      for (const twin of deps.twinsOf(file)) {
        const twinFamily = familyOf(twin);
        if (twin === file || twinFamily === undefined || twinFamily.key !== family.key || !isFileOnDisk(twin)) continue;
        // A twin already in the family (the watcher reported it while this deletion was being
        // looked at) takes the file's place too: the session goes on from it, never removed.
        if (!isTracked(twin) && !families.get(family.key)?.has(twin)) remember(twinFamily, twin, sessionId);
        adopted = true;
      }
      return adopted;
    },
  };
};

/**
 * True when what was read of a family no longer stands and it must be folded again from the first
 * byte of each file: a read file that went, was replaced or truncated, a file before the last one
 * read that changed, or a file new to the family that sorts before one already read. Growth of the
 * last file read is read as any file's. `files` in reading order, `infos` their stats (undefined:
 * gone, or not read while a twin is), `read` what was read of each (its offset, and its stats then).
 */
export const mustRefold = (
  files: readonly string[],
  infos: readonly (FileStat | undefined)[],
  read: ReadonlyMap<string, FileStat & { readonly offset: number }>,
): boolean => {
  let lastRead = -1;
  files.forEach((file, i) => {
    if (read.has(file)) lastRead = i;
  });
  let refold = false;
  files.forEach((file, i) => {
    const t = read.get(file);
    const info = infos[i];
    if (!t) {
      if (info && i < lastRead) refold = true;
      return;
    }
    if (!info || info.ino !== t.ino || info.size < t.offset) refold = true;
    else if (i < lastRead && (info.size !== t.size || info.mtimeMs !== t.mtimeMs)) refold = true;
  });
  return refold;
};
