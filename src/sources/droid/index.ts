import { createJsonlSource } from '../internal/jsonl-source.js';
import type { JsonlAgentSpec } from '../internal/file-parser.js';
import type { SourceCtx } from '../internal/options.js';
import { createDroidParser } from './parse.js';
import { DROID_TREE_DEPTH, droidIdFromFile, droidSessionsDir } from './paths.js';

/**
 * Factory Droid: `~/.factory/sessions/<folder>/<session id>.jsonl`, with `<session id>.settings.json`
 * beside it (model and token totals, read by the parser).
 *
 * The spec the engine runs; exported for tests that drive its file tracker directly.
 */
export const droidSpec = (ctx: SourceCtx): JsonlAgentSpec => {
  const dir = droidSessionsDir(ctx.env);
  return {
    agent: 'droid',
    roots: [{ dir, depth: DROID_TREE_DEPTH }],
    classify: (_root, file) => droidIdFromFile(dir, file),
    createParser: (file, sessionId, resumed, restored) => createDroidParser(file, sessionId, resumed, restored),
  };
};

export const droid = createJsonlSource(droidSpec);
