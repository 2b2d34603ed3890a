import { readFile } from 'node:fs/promises';
import type { SessionMetaPatch } from '../../core/session.js';
import type { SideFileSpec } from '../internal/file-parser.js';
import { parseJson } from '../internal/skim.js';
import { codexThreadNameSchema } from './schema.js';

/** Pure: the lines of `session_index.jsonl` -> thread name per session id, later lines winning. */
export const parseThreadNames = (text: string): Map<string, SessionMetaPatch> => {
  const names = new Map<string, SessionMetaPatch>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const parsed = codexThreadNameSchema.safeParse(parseJson(line));
    if (parsed.success && parsed.data.thread_name.trim()) names.set(parsed.data.id, { agentName: parsed.data.thread_name.trim() });
  }
  return names;
};

export const codexThreadNames = (indexFile: string, codexHomeDir: string): SideFileSpec => ({
  roots: [{ dir: codexHomeDir, depth: 0 }],
  matches: (file) => file === indexFile,
  read: async (file) => {
    try {
      return parseThreadNames(await readFile(file, 'utf8'));
    } catch {
      return new Map();
    }
  },
});
