import { createJsonlSource } from '../internal/jsonl-source.js';
import type { JsonlAgentSpec } from '../internal/file-parser.js';
import type { SourceCtx } from '../internal/options.js';
import { createGeminiParser } from './parse.js';
import { classifyGeminiFile, GEMINI_SKIPPED_DIRS, GEMINI_TREE_DEPTH, geminiTmpDir, readGeminiProjectPath } from './paths.js';

/**
 * Gemini CLI: `<gemini dir>/tmp/<project>/chats/session-<time>-<id8>.jsonl`, sub-agents in
 * `chats/<parent session>/<session>.jsonl`; the project's path from the folder's marker or
 * `projects.json`, read once per file.
 *
 * The spec the engine runs; exported for tests that drive its file tracker directly.
 */
export const geminiSpec = (ctx: SourceCtx): JsonlAgentSpec => {
  const tmpDir = geminiTmpDir(ctx.env);
  return {
    agent: 'gemini',
    roots: [{ dir: tmpDir, depth: GEMINI_TREE_DEPTH }],
    classify: (_root, file) => classifyGeminiFile(tmpDir, file)?.provisionalId,
    skipDir: (name) => GEMINI_SKIPPED_DIRS.has(name),
    createParser: (file, sessionId, resumed, restored) => {
      const kind = classifyGeminiFile(tmpDir, file) ?? { kind: 'main', project: tmpDir, provisionalId: sessionId };
      return createGeminiParser(file, resumed ? { ...kind, provisionalId: sessionId } : kind, readGeminiProjectPath(ctx.env, kind.project), resumed, restored);
    },
  };
};

export const gemini = createJsonlSource(geminiSpec);
