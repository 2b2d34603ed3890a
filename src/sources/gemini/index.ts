import { createJsonlSource } from '../internal/jsonl-source.js';
import type { JsonlAgentSpec } from '../internal/file-parser.js';
import type { SourceCtx } from '../internal/options.js';
import { createChatDocumentParser } from './document.js';
import { createGeminiParser, GEMINI_DIALECT } from './parse.js';
import { chatFamilyOf, chatTwinRank, chatTwinsOf, classifyGeminiFile, GEMINI_SKIPPED_DIRS, GEMINI_TREE_DEPTH, geminiTmpDir, isChatDocument, readGeminiProjectPath } from './paths.js';

/**
 * Gemini CLI: `<gemini dir>/tmp/<project>/chats/session-<time>-<id8>.jsonl`, sub-agents in
 * `chats/<parent session>/<session>.jsonl`; the older single-document `session-<time>-<id8>.json`,
 * read whole on every change (one session with the `.jsonl` it was converted to); the project's
 * path from the folder's marker or `projects.json`, read once per file.
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
    readsWhole: isChatDocument,
    familyOf: chatFamilyOf,
    twinRank: chatTwinRank,
    twinsOf: chatTwinsOf,
    createParser: (file, sessionId, resumed, restored) => {
      const kind = classifyGeminiFile(tmpDir, file) ?? { kind: 'main', project: tmpDir, provisionalId: sessionId };
      const cwd = readGeminiProjectPath(ctx.env, kind.project);
      if (isChatDocument(file)) return createChatDocumentParser(file, kind, cwd, GEMINI_DIALECT);
      return createGeminiParser(file, resumed ? { ...kind, provisionalId: sessionId } : kind, cwd, resumed, restored);
    },
  };
};

export const gemini = createJsonlSource(geminiSpec);
