import { createJsonlSource } from '../internal/jsonl-source.js';
import type { JsonlAgentSpec } from '../internal/file-parser.js';
import type { SourceCtx } from '../internal/options.js';
import { createQwenParser } from './parse.js';
import { QWEN_TREE_DEPTH, qwenIdFromFile, qwenProjectsDir } from './paths.js';

/**
 * Qwen Code: `<runtime dir>/projects/<project>/chats/<session id>.jsonl`.
 *
 * The spec the engine runs; exported for tests that drive its file tracker directly.
 */
export const qwenSpec = (ctx: SourceCtx): JsonlAgentSpec => {
  const dir = qwenProjectsDir(ctx.env);
  return {
    agent: 'qwen',
    roots: [{ dir, depth: QWEN_TREE_DEPTH }],
    classify: (_root, file) => qwenIdFromFile(dir, file),
    createParser: createQwenParser,
  };
};

export const qwen = createJsonlSource(qwenSpec);
