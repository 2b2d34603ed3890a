import { createJsonlSource } from '../internal/jsonl-source.js';
import type { JsonlAgentSpec } from '../internal/file-parser.js';
import type { SourceCtx } from '../internal/options.js';
import { createPiParser } from './parse.js';
import { classifyPiFile, isPiSessionFolder, PI_TREE_DEPTH, piSessionRoots, type PiFileKind } from './paths.js';

/**
 * pi: `~/.pi/agent/sessions/--<cwd>--/<stem>.jsonl`; sub-agent runs in `subagent-artifacts/` are
 * hidden sidechains. Oh My Pi's tree (`~/.omp/agent/sessions`) has the same layout. A session
 * directory set by `$PI_CODING_AGENT_SESSION_DIR` or the global `settings.json` (`sessionDir`) is
 * watched too: pi keeps it flat.
 *
 * The spec the engine runs; exported for tests that drive its file tracker directly.
 */
export const piSpec = (ctx: SourceCtx): JsonlAgentSpec => {
  const { trees, flat } = piSessionRoots(ctx.env);
  const kindOf = (root: string, file: string): PiFileKind | undefined => classifyPiFile(root, file, root === flat);
  const kindIn = (file: string): PiFileKind | undefined => {
    if (flat) {
      const kind = kindOf(flat, file);
      if (kind) return kind;
    }
    for (const tree of trees) {
      const kind = kindOf(tree, file);
      if (kind) return kind;
    }
    return undefined;
  };
  return {
    agent: 'pi',
    roots: [...trees.map((dir) => ({ dir, depth: PI_TREE_DEPTH })), ...(flat ? [{ dir: flat, depth: 0 }] : [])],
    classify: (root, file) => kindOf(root, file)?.sessionId,
    skipDir: (name) => !isPiSessionFolder(name),
    createParser: (file, sessionId, resumed, restored) => createPiParser(file, kindIn(file) ?? { kind: 'main', sessionId }, resumed, restored),
  };
};

export const pi = createJsonlSource(piSpec);
