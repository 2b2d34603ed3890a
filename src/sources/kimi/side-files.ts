import { existsSync } from 'node:fs';
import path from 'node:path';
import type { SessionMetaPatch } from '../../core/session.js';
import type { SideFileSpec } from '../internal/file-parser.js';
import { parseJson } from '../internal/skim.js';
import { createSideTextReader, type SideTextReader } from '../internal/side-text.js';
import { kimiIndexFile, kimiSessionsDir, kimiStateFile, kimiStateSession } from './paths.js';
import { kimiIndexLineSchema, kimiStateSchema } from './schema.js';

/**
 * Pure: `session_index.jsonl` to the working directory of each session. Entries are matched by
 * the last component of `sessionDir` (the session directory name), falling back to `sessionId`:
 * the index holds absolute paths that stop matching when the tree is moved or restored elsewhere.
 * Torn and foreign lines are skipped; a later line for the same session wins.
 */
export const readKimiIndex = (text: string): Map<string, string> => {
  const cwdBySession = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const entry = kimiIndexLineSchema.safeParse(parseJson(line));
    if (!entry.success || !entry.data.workDir) continue;
    const id = entry.data.sessionDir ? path.basename(entry.data.sessionDir) : entry.data.sessionId;
    if (id) cwdBySession.set(id, entry.data.workDir);
  }
  return cwdBySession;
};

/** Pure: `state.json` to the session's title (and, version 2, cwd) patch; empty when it has none or is unreadable. */
export const readKimiState = (text: string): SessionMetaPatch => {
  const state = kimiStateSchema.safeParse(parseJson(text));
  if (!state.success) return {};
  const title = state.data.title?.trim();
  const cwd = (state.data.cwd || state.data.workDir)?.trim();
  return { ...(title ? { agentName: title } : {}), ...(cwd ? { cwd } : {}) };
};

/** A side file's text, '' when unreadable. Synchronous: they are small, and one thread pool round trip each cost a warm start of 1,000 sessions more than reading them. */
const textOf = (read: SideTextReader, file: string): string => {
  try {
    return read(file) ?? '';
  } catch {
    return '';
  }
};

/**
 * The index (cwd) and each session's `state.json` (title), as side files of the JSONL engine.
 * `onIndex` hands the cwd map to the wire parsers, which resolve relative file paths with it.
 */
export const kimiSideFiles = (
  root: string,
  onIndex: (cwdBySession: ReadonlyMap<string, string>) => void,
  read: SideTextReader = createSideTextReader('kimi', undefined),
): SideFileSpec => {
  const sessionsDir = kimiSessionsDir(root);
  const indexFile = kimiIndexFile(root);
  return {
    // NOTE: `state.json` files sit inside the wire-stream tree, which the engine already walks and
    // watches (every path goes through `matches`); a second root there would double the watches.
    roots: [{ dir: root, depth: 0 }],
    matches: (file) => file === indexFile || kimiStateSession(sessionsDir, file) !== undefined,
    read: (file) => {
      if (file === indexFile) {
        const cwdBySession = readKimiIndex(textOf(read, file));
        onIndex(cwdBySession);
        return new Map([...cwdBySession].map(([id, cwd]) => [id, { cwd }]));
      }
      const state = kimiStateFile(sessionsDir, file);
      if (state === undefined) return new Map();
      // The earlier layout's file counts only while the session has none of its own, as in Kimi Code.
      if (state.legacy && existsSync(path.join(path.dirname(path.dirname(file)), 'state.json'))) return new Map();
      return new Map([[state.sessionId, readKimiState(textOf(read, file))]]);
    },
  };
};
