import { existsSync } from 'node:fs';
import path from 'node:path';
import { homeDir, type Env } from '../../config/paths.js';
import { segmentsBelow } from '../internal/walk.js';

/** Cursor Agent's transcripts: `~/.cursor/projects/<folder>/agent-transcripts/` (docs/formats/cursor.md). */
export const cursorProjectsDir = (env: Env): string => path.join(homeDir(env), '.cursor', 'projects');

/** `<folder>/agent-transcripts/<id>/<id>.jsonl`, and a sub-agent's `<id>/subagents/<sub>.jsonl`. */
export const CURSOR_TRANSCRIPT_DEPTH = 4;

export interface CursorTranscriptFile {
  readonly sessionId: string;
  /** The folder Cursor named after the workspace. */
  readonly folder: string;
  /** A sub-agent's transcript: the session that started it. */
  readonly parentId?: string;
}

/** Which session a file under `projects/` is the transcript of, or undefined. */
export const classifyCursorTranscript = (projectsDir: string, file: string): CursorTranscriptFile | undefined => {
  if (!file.endsWith('.jsonl')) return undefined;
  const parts = segmentsBelow(projectsDir, file);
  if (!parts || parts[1] !== 'agent-transcripts') return undefined;
  const [folder, , id, name, sub] = parts;
  if (!folder || !id) return undefined;
  if (parts.length === 4 && name === `${id}.jsonl`) return { sessionId: id, folder };
  if (parts.length === 5 && name === 'subagents' && sub) return { sessionId: sub.slice(0, -'.jsonl'.length), folder, parentId: id };
  return undefined;
};

/**
 * The workspace a folder name stands for. Cursor names the folder after the workspace path with
 * `/` and `.` (and other characters outside letters, digits and `-`) turned into `-` and no
 * leading one, so the name alone cannot be turned back: each `-` is tried as a path separator, a
 * `-` or a `.`, and the first path that exists as a directory wins. Undefined when none does.
 */
export const workspaceOfFolder = (folder: string, isDir: (p: string) => boolean = existsSync): string | undefined => {
  const parts = folder.split('-').filter((p) => p !== '');
  if (parts.length === 0 || parts.length > 40) return undefined;
  let tries = 0;
  const walk = (dir: string, i: number): string | undefined => {
    if (i === parts.length) return dir;
    // Extend the next component over 1..n parts joined by `-` or `.`; a bounded search.
    for (let j = i + 1; j <= parts.length; j++) {
      for (const joiner of j - i === 1 ? [''] : ['-', '.', '_']) {
        if (++tries > 2000) return undefined;
        const name = parts.slice(i, j).join(joiner);
        const next = path.join(dir, name);
        if (isDir(next)) {
          const found = walk(next, j);
          if (found) return found;
        }
      }
    }
    return undefined;
  };
  return walk(path.sep, 0);
};
