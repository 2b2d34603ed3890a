import { createJsonlSource } from '../internal/jsonl-source.js';
import type { JsonlAgentSpec } from '../internal/file-parser.js';
import type { SourceCtx } from '../internal/options.js';
import { createCodexParser } from './parse.js';
import { CODEX_TREE_DEPTH, codexArchivedDir, codexFamilyOf, codexHome, codexIdFromFile, codexSessionIndexPath, codexSessionsDir, codexTwinRank, codexTwinsOf } from './paths.js';
import { codexThreadNames } from './thread-names.js';

/**
 * Codex CLI: rollouts under `$CODEX_HOME/sessions/**` and of archived threads under
 * `$CODEX_HOME/archived_sessions/` (their spend happened: ccusage and CodexBar count them too; a
 * rollout moved between the two stays one session), a resumed thread's segment files read in
 * order, as one session, and thread names from `session_index.jsonl`.
 *
 * The spec the engine runs; exported for tests that drive its file tracker directly.
 */
export const codexSpec = (ctx: SourceCtx): JsonlAgentSpec => ({
  agent: 'codex',
  roots: [
    { dir: codexSessionsDir(ctx.env), depth: CODEX_TREE_DEPTH },
    { dir: codexArchivedDir(ctx.env), depth: CODEX_TREE_DEPTH },
  ],
  classify: (_root, file) => codexIdFromFile(file),
  createParser: createCodexParser,
  familyOf: codexFamilyOf,
  twinRank: codexTwinRank(codexArchivedDir(ctx.env)),
  twinsOf: codexTwinsOf(codexSessionsDir(ctx.env), codexArchivedDir(ctx.env)),
  sideFiles: codexThreadNames(codexSessionIndexPath(ctx.env), codexHome(ctx.env)),
});

export const codex = createJsonlSource(codexSpec);
