import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { JsonlAgentSpec } from '../internal/file-parser.js';
import type { SourceCtx } from '../internal/options.js';
import { createKimiLegacyParser } from './legacy-parse.js';
import { classifyKimiLegacyFile, KIMI_LEGACY_DEPTH, kimiLegacyMetadataFile, kimiLegacyRoot, kimiLegacySessionsDir, readKimiLegacyMetadata } from './legacy-paths.js';
import { kimiRoot, kimiSessionsDir } from './paths.js';

/**
 * Whether Kimi Code already holds the Kimi CLI session `id` (it carries sessions over when it is
 * installed): a session directory of that name, or `session_<id>`, under any of its work
 * directories. Such a session is read from Kimi Code's tree only.
 */
const carriedOver = (kimiCodeSessions: string, id: string): boolean => {
  let dirs: string[];
  try {
    dirs = readdirSync(kimiCodeSessions);
  } catch {
    return false;
  }
  return dirs.some((dir) => existsSync(path.join(kimiCodeSessions, dir, id)) || existsSync(path.join(kimiCodeSessions, dir, `session_${id}`)));
};

/** The working directory of each session folder, from `kimi.json`; empty when it cannot be read. */
const readMetadata = (root: string): Map<string, string> => {
  try {
    return readKimiLegacyMetadata(readFileSync(kimiLegacyMetadataFile(root), 'utf8'));
  } catch {
    return new Map();
  }
};

/**
 * The Kimi CLI's sessions under `~/.kimi` (docs/formats/kimi.md), beside Kimi Code's; undefined
 * when that tree is Kimi Code's own root.
 */
export const kimiLegacySpec = (ctx: SourceCtx): JsonlAgentSpec | undefined => {
  const root = kimiLegacyRoot(ctx.env);
  if (root === undefined) return undefined;
  const dir = kimiLegacySessionsDir(root);
  const kimiCodeSessions = kimiSessionsDir(kimiRoot(ctx.env));
  // `kimi.json` gains a work directory when a session starts in a new one: read again when a
  // folder it does not name is met.
  let byFolder = readMetadata(root);
  const cwdOf = (folder: string): string | undefined => {
    if (!byFolder.has(folder)) byFolder = readMetadata(root);
    return byFolder.get(folder);
  };
  return {
    agent: 'kimi',
    roots: [{ dir, depth: KIMI_LEGACY_DEPTH }],
    classify: (_root, file) => {
      const found = classifyKimiLegacyFile(dir, file);
      return found && !carriedOver(kimiCodeSessions, found.sessionId) ? found.sessionId : undefined;
    },
    createParser: (file, sessionId, resumed, restored) => {
      const folder = classifyKimiLegacyFile(dir, file)?.folder ?? '';
      return createKimiLegacyParser(file, sessionId, () => cwdOf(folder), resumed, restored);
    },
  };
};
