import { createJsonlSource } from '../internal/jsonl-source.js';
import { createCodexParser } from './parse.js';
import { CODEX_TREE_DEPTH, codexFamilyOf, codexHome, codexIdFromFile, codexSessionIndexPath, codexSessionsDir } from './paths.js';
import { codexThreadNames } from './thread-names.js';

/**
 * Codex CLI: rollouts under `$CODEX_HOME/sessions/**` (a resumed thread's segment files read in
 * order, as one session) and thread names from `session_index.jsonl`.
 */
export const codex = createJsonlSource((ctx) => ({
  agent: 'codex',
  roots: [{ dir: codexSessionsDir(ctx.env), depth: CODEX_TREE_DEPTH }],
  classify: (_root, file) => codexIdFromFile(file),
  createParser: createCodexParser,
  familyOf: codexFamilyOf,
  sideFiles: codexThreadNames(codexSessionIndexPath(ctx.env), codexHome(ctx.env)),
}));
