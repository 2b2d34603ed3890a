import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SessionMetaPatch } from '../../core/session.js';
import type { SideFileSpec } from '../internal/file-parser.js';
import { parseJson } from '../internal/skim.js';
import { claudeDesktopSidecarSchema } from './schema.js';

const isDesktopSidecar = (file: string): boolean => /^local_.*\.json$/.test(path.basename(file));

/** Pure: one sidecar's JSON -> the patch for the CLI session it describes (by `cliSessionId`). */
export const desktopPatch = (json: unknown): [string, SessionMetaPatch] | undefined => {
  const parsed = claudeDesktopSidecarSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const { cliSessionId, title, createdAt } = parsed.data;
  return [cliSessionId, { source: 'desktop', ...(title ? { agentName: title } : {}), ...(createdAt ? { createdAt } : {}) }];
};

/** Claude Desktop sidecars (macOS): they mark a CLI transcript as a Desktop session and title it. */
export const desktopSideFiles = (dir: string): SideFileSpec => ({
  roots: [{ dir, depth: 4 }],
  matches: isDesktopSidecar,
  read: async (file) => {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return new Map();
    }
    const entry = desktopPatch(parseJson(text));
    return new Map(entry ? [entry] : []);
  },
});
