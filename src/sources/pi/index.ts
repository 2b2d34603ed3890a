import { createJsonlSource } from '../internal/jsonl-source.js';
import { createPiParser } from './parse.js';
import { classifyPiFile, PI_TREE_DEPTH, piSessionsDir } from './paths.js';

/** pi: `~/.pi/agent/sessions/--<cwd>--/<stem>.jsonl`; sub-agent runs in `subagent-artifacts/` are hidden sidechains. */
export const pi = createJsonlSource((ctx) => {
  const dir = piSessionsDir(ctx.env);
  return {
    agent: 'pi',
    roots: [{ dir, depth: PI_TREE_DEPTH }],
    classify: (root, file) => classifyPiFile(root, file)?.sessionId,
    skipDir: (name) => name !== 'subagent-artifacts' && !name.startsWith('--'),
    createParser: (file, sessionId, resumed) => createPiParser(file, classifyPiFile(dir, file) ?? { kind: 'main', sessionId }, resumed),
  };
});
