import path from 'node:path';
import { homeDir, type Env } from '../../config/paths.js';
import { COMPRESSED_SUFFIX, plainFirst, plainTwinOf, type TwinRank } from '../internal/compressed.js';
import type { FamilyKey } from '../internal/file-family.js';

/** `$CODEX_HOME`, else `~/.codex` (Codex itself honours the variable). */
export const codexHome = (env: Env): string => {
  const fromEnv = env.CODEX_HOME?.trim();
  return fromEnv ? path.resolve(fromEnv) : path.join(homeDir(env), '.codex');
};

export const codexSessionsDir = (env: Env): string => path.join(codexHome(env), 'sessions');
export const codexSessionIndexPath = (env: Env): string => path.join(codexHome(env), 'session_index.jsonl');
/**
 * Where Codex moves an archived thread's rollout (`/archive`, `codex archive`): flat, the same
 * file name; unarchiving moves it back under `sessions/`.
 */
export const codexArchivedDir = (env: Env): string => path.join(codexHome(env), 'archived_sessions');

/** Rollouts are nested `YYYY/MM/DD`, but any nesting is accepted (docs/formats/codex.md). */
export const CODEX_TREE_DEPTH = 8;

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/**
 * A rollout's name ends with its thread's id, `rollout-<ts>-<thread>.jsonl`; a thread resumed or
 * reverted by Codex 0.147+ goes on in a new segment file, `rollout-<ts>-<thread>_<segment>.jsonl`.
 * Codex 0.137+ compresses a rollout idle for a week to the same name plus `.zst`.
 */
const ROLLOUT_NAME = new RegExp(`(${UUID})(?:_([0-9a-z-]+))?\\.jsonl(?:\\.zst)?$`, 'i');

/**
 * The provisional session id of a rollout file: its thread's id (the uuid its name ends with, or
 * the one before a segment's id), else the file stem. The `session_meta` record, read first, has
 * the final word.
 */
export const codexIdFromFile = (file: string): string | undefined => {
  const plain = plainTwinOf(file);
  if (!plain.endsWith('.jsonl')) return undefined;
  return ROLLOUT_NAME.exec(path.basename(file))?.[1] ?? path.basename(plain, '.jsonl');
};

/** True for a segment file (`..._<segment>.jsonl`): a thread's continuation, not its first file. */
export const isCodexSegment = (file: string): boolean => ROLLOUT_NAME.exec(path.basename(file))?.[2] !== undefined;

/**
 * The files of one thread, in the order Codex wrote them: the name starts with the time the
 * segment began (`rollout-YYYY-MM-DDTHH-MM-SS-`), so names sort in time, and a segment begun in
 * the same second as its thread sorts after it (`_` after `.`).
 */
export const codexFamilyOf = (file: string): FamilyKey | undefined => {
  const name = path.basename(file);
  const thread = ROLLOUT_NAME.exec(name)?.[1];
  return thread === undefined ? undefined : { key: thread.toLowerCase(), order: name };
};

/**
 * Of a rollout's twins, the one read while both exist: a live one before an archived one (a copy
 * left behind by a move that is not a rename), and, in either folder, the plain file before its
 * compressed twin.
 */
export const codexTwinRank =
  (archivedDir: string): TwinRank =>
  (file) =>
    (file.startsWith(archivedDir + path.sep) ? 2 : 0) + plainFirst(file);

const DAY_OF_NAME = /^rollout-(\d{4})-(\d{2})-(\d{2})T/;

/**
 * Where a rollout's twins would be: its plain or compressed form beside it, and the same name in
 * the other root (`archived_sessions/`, or `sessions/YYYY/MM/DD/` of the day its name begins
 * with, where Codex files it and unarchiving puts it back).
 */
export const codexTwinsOf =
  (sessionsDir: string, archivedDir: string) =>
  (file: string): string[] => {
    const name = path.basename(plainTwinOf(file));
    const day = DAY_OF_NAME.exec(name);
    const dirs = new Set([path.dirname(file), archivedDir]);
    if (day) dirs.add(path.join(sessionsDir, day[1] as string, day[2] as string, day[3] as string));
    return [...dirs].flatMap((dir) => [path.join(dir, name), path.join(dir, name + COMPRESSED_SUFFIX)]).filter((twin) => twin !== file);
  };
