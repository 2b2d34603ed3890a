/** opencode/kilo tools that change a file; their `filePath` input is the session's last file write. */
const WRITE_TOOLS: ReadonlySet<string> = new Set(['write', 'edit', 'multiedit', 'patch', 'apply_patch']);

const PATCH_FILE_LINE = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/m;

/**
 * The file a writing tool call targets, from its input: `filePath` (what opencode writes), then
 * `file_path`/`path`, then the first file named in an apply_patch body.
 *
 * @example writtenFile('edit', { filePath: '/w/a.css' }) // '/w/a.css'
 */
export const writtenFile = (tool: string, input: Readonly<Record<string, unknown>> | null | undefined): string | undefined => {
  if (!WRITE_TOOLS.has(tool) || !input) return undefined;
  for (const key of ['filePath', 'file_path', 'path']) {
    const value = input[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  const patch = input.patchText ?? input.patch;
  if (typeof patch === 'string') return PATCH_FILE_LINE.exec(patch)?.[1]?.trim();
  return undefined;
};
