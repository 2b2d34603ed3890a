import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { homeDir, type Env } from '../../config/paths.js';
import { parseJson } from '../internal/skim.js';
import type { TwinRank } from '../internal/compressed.js';
import type { FamilyKey } from '../internal/file-family.js';
import { jsonlBelow, segmentsBelow } from '../internal/walk.js';

/**
 * Gemini CLI's own folder: `$GEMINI_CLI_HOME/.gemini` (the variable stands in for the home
 * directory, as Gemini CLI reads it), else `~/.gemini`.
 */
const geminiDir = (env: Env): string => path.join(env.GEMINI_CLI_HOME?.trim() || homeDir(env), '.gemini');

/** `<gemini dir>/tmp`: one folder per project (a short label, or the sha256 of its path in older builds). */
export const geminiTmpDir = (env: Env): string => path.join(geminiDir(env), 'tmp');

/** `projects.json`: `{projects: {<absolute path>: <label>}}`, the labels of the project folders. */
export const geminiProjectsFile = (env: Env): string => path.join(geminiDir(env), 'projects.json');

/** `<project>/chats/<file>.jsonl`, and a sub-agent's `<project>/chats/<parent session>/<session>.jsonl`. */
export const GEMINI_TREE_DEPTH = 3;

export type GeminiFileKind =
  | { readonly kind: 'main'; readonly project: string; readonly provisionalId: string }
  | { readonly kind: 'subagent'; readonly project: string; readonly provisionalId: string; readonly parentId: string };

/**
 * A chat file below the tmp folder: its project folder and a provisional id (the file stem; the
 * header names the session). Besides the JSONL chats, the single-document `session-*.json` chats
 * of the versions before them (docs/formats/gemini.md).
 */
export const classifyGeminiFile = (tmpDir: string, file: string): GeminiFileKind | undefined => {
  if (isChatDocument(file)) {
    const parts = segmentsBelow(tmpDir, file);
    if (parts?.[1] !== 'chats') return undefined;
    const project = path.join(tmpDir, parts[0] as string);
    const stem = (parts.at(-1) as string).slice(0, -'.json'.length);
    if (parts.length === 3 && stem.startsWith('session-')) return { kind: 'main', project, provisionalId: stem };
    if (parts.length === 4 && stem !== '') return { kind: 'subagent', project, provisionalId: stem, parentId: parts[2] as string };
    return undefined;
  }
  const found = jsonlBelow(tmpDir, file);
  if (!found || found.parts[1] !== 'chats') return undefined;
  const project = path.join(tmpDir, found.parts[0] as string);
  if (found.parts.length === 3 && found.stem.startsWith('session-')) return { kind: 'main', project, provisionalId: found.stem };
  if (found.parts.length === 4) return { kind: 'subagent', project, provisionalId: found.stem, parentId: found.parts[2] as string };
  return undefined;
};

/** A chat of the single-document form, rewritten whole: read again on every change. */
export const isChatDocument = (file: string): boolean => file.endsWith('.json');

/**
 * A chat converted to JSONL (on resume) keeps its single-document form beside it, of the same
 * name: both are one session, which the `.jsonl` file continues. Family key: the path without the
 * extension.
 */
export const chatFamilyOf = (file: string): FamilyKey | undefined => {
  if (!path.basename(file).startsWith('session-') || path.basename(path.dirname(file)) !== 'chats') return undefined;
  if (isChatDocument(file)) return { key: file.slice(0, -'.json'.length), order: '1' };
  return file.endsWith('.jsonl') ? { key: file.slice(0, -'.jsonl'.length), order: '0' } : undefined;
};

/** Of the two forms of a chat, the JSONL file is read while both exist: the CLI writes only to it. */
export const chatTwinRank: TwinRank = (file) => (isChatDocument(file) ? 1 : 0);

/** Where the other form of a chat would be. */
export const chatTwinsOf = (file: string): string[] => (isChatDocument(file) ? [`${file}l`] : file.endsWith('.jsonl') ? [file.slice(0, -1)] : []);

/** Folders of a project folder that never hold chats (checkpoints, logs, plans, shell history). */
export const GEMINI_SKIPPED_DIRS = new Set(['checkpoints', 'logs', 'memory', 'plans', 'tracker', 'tasks', 'bin', 'history']);

const readText = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The project path a project folder stands for (pure: `read` gives a file's text). A labelled
 * folder holds the path in its `.project_root` marker; else `projects.json` names the folder's
 * label, or, for an older folder named by the sha256 of the path, a path with that hash.
 */
export const geminiProjectPath = (projectDir: string, projectsText: string | undefined, read: (file: string) => string | undefined = readText): string | undefined => {
  const marker = read(path.join(projectDir, '.project_root'))?.trim();
  if (marker) return marker;
  const name = path.basename(projectDir);
  const projects = (parseJson(projectsText ?? '') as { projects?: unknown } | undefined)?.projects;
  if (typeof projects !== 'object' || projects === null) return undefined;
  for (const [projectPath, label] of Object.entries(projects as Record<string, unknown>)) {
    if (label === name || sha256(projectPath) === name) return projectPath;
  }
  return undefined;
};

/** The project path of `projectDir`, reading the marker and `projects.json` now. */
export const readGeminiProjectPath = (env: Env, projectDir: string): string | undefined => geminiProjectPath(projectDir, readText(geminiProjectsFile(env)));
