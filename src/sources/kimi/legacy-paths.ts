import { createHash } from 'node:crypto';
import path from 'node:path';
import { homeDir, type Env } from '../../config/paths.js';
import { parseJson } from '../internal/skim.js';
import { segmentsBelow } from '../internal/walk.js';
import { kimiRoot } from './paths.js';

/**
 * The Kimi CLI's tree that Kimi Code replaced: `~/.kimi` (docs/formats/kimi.md). Undefined when
 * it is Kimi Code's own root (a `KIMI_SHARE_DIR` pointing there).
 */
export const kimiLegacyRoot = (env: Env): string | undefined => {
  const legacy = path.join(homeDir(env), '.kimi');
  return path.resolve(legacy) === path.resolve(kimiRoot(env)) ? undefined : legacy;
};

export const kimiLegacySessionsDir = (root: string): string => path.join(root, 'sessions');
export const kimiLegacyMetadataFile = (root: string): string => path.join(root, 'kimi.json');

/** `sessions/<work dir hash>/<session id>/wire.jsonl`. */
export const KIMI_LEGACY_DEPTH = 2;

export interface KimiLegacyFile {
  readonly sessionId: string;
  /** The folder named after the working directory (the MD5 of its path, `<kaos>_` before it off the local machine). */
  readonly folder: string;
}

export const classifyKimiLegacyFile = (sessionsDir: string, file: string): KimiLegacyFile | undefined => {
  const parts = segmentsBelow(sessionsDir, file);
  if (parts?.length !== 3 || parts[2] !== 'wire.jsonl') return undefined;
  const [folder, sessionId] = parts;
  return folder && sessionId ? { sessionId, folder } : undefined;
};

/**
 * Pure: `kimi.json` (`work_dirs: [{path, kaos}]`) to the working directory of each session folder,
 * named as the Kimi CLI names it: the MD5 of the path, prefixed by `<kaos>_` for a work directory
 * that is not on the local machine.
 */
export const readKimiLegacyMetadata = (text: string): Map<string, string> => {
  const byFolder = new Map<string, string>();
  const dirs = (parseJson(text) as { work_dirs?: unknown } | null | undefined)?.work_dirs;
  if (!Array.isArray(dirs)) return byFolder;
  for (const dir of dirs as { path?: unknown; kaos?: unknown }[]) {
    if (typeof dir?.path !== 'string' || dir.path === '') continue;
    const hash = createHash('md5').update(dir.path, 'utf8').digest('hex');
    const local = dir.kaos === undefined || dir.kaos === 'local';
    byFolder.set(local ? hash : `${String(dir.kaos)}_${hash}`, dir.path);
  }
  return byFolder;
};
