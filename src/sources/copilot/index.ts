import { createJsonlSource } from '../internal/jsonl-source.js';
import type { JsonlAgentSpec } from '../internal/file-parser.js';
import type { SourceCtx } from '../internal/options.js';
import { createCopilotParser } from './parse.js';
import { COPILOT_TREE_DEPTH, copilotIdFromFile, copilotSessionsDir } from './paths.js';

/**
 * Copilot CLI: `$COPILOT_HOME/session-state/<session id>/events.jsonl`, one event log per
 * session (the folder's other files are the CLI's own workspace).
 *
 * The spec the engine runs; exported for tests that drive its file tracker directly.
 */
export const copilotSpec = (ctx: SourceCtx): JsonlAgentSpec => {
  const dir = copilotSessionsDir(ctx.env);
  return {
    agent: 'copilot',
    roots: [{ dir, depth: COPILOT_TREE_DEPTH }],
    classify: (_root, file) => copilotIdFromFile(dir, file),
    createParser: createCopilotParser,
  };
};

export const copilot = createJsonlSource(copilotSpec);
