import path from 'node:path';
import { fileUriToPath } from './file-uri.js';

/** Cursor tools that change a file (names compared without case, `_`, `-`). */
const WRITE_TOOLS: ReadonlySet<string> = new Set([
  'editfile', 'editfilev2', 'writetofile', 'writetofilev2', 'searchreplace', 'write', 'edit', 'multiedit', 'createfile', 'applypatch', 'strreplace',
]);

const canonical = (name: string): string => name.toLowerCase().replace(/[\s._-]+/g, '');

const FILE_KEYS = ['target_file', 'targetFile', 'file_path', 'filePath', 'relativeWorkspacePath', 'relative_workspace_path', 'path'];

/** Tool arguments arrive as a JSON string (`rawArgs`, often `params`) or an object. */
const argsObject = (value: unknown): Record<string, unknown> | undefined => {
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
};

/**
 * The file a writing tool targets, absolute when the composer's directory is known; `file://`
 * URIs are percent-decoded.
 *
 * @example writtenFile('edit_file', '{"target_file":"src/a.ts"}', undefined, '/w') // '/w/src/a.ts'
 */
export const writtenFile = (name: string, rawArgs: unknown, params: unknown, cwd: string | undefined): string | undefined => {
  if (!WRITE_TOOLS.has(canonical(name))) return undefined;
  for (const args of [argsObject(rawArgs), argsObject(params)]) {
    if (!args) continue;
    for (const key of FILE_KEYS) {
      const value = args[key];
      if (typeof value !== 'string' || value === '') continue;
      const file = fileUriToPath(value);
      return path.posix.isAbsolute(file) || /^[A-Za-z]:[\\/]/.test(file) || !cwd ? file : path.posix.join(cwd, file);
    }
  }
  return undefined;
};
