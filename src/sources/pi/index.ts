import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createJsonlSource } from '../internal/jsonl-source.js';
import { unlessMissing } from '../internal/missing.js';
import { createPiParser } from './parse.js';
import { classifyPiFile, PI_TREE_DEPTH, piAgentDir, piCustomSessionsDir, piSessionsDir, type PiFileKind } from './paths.js';

/**
 * pi: `~/.pi/agent/sessions/--<cwd>--/<stem>.jsonl`; sub-agent runs in `subagent-artifacts/` are
 * hidden sidechains. A session directory set by `$PI_CODING_AGENT_SESSION_DIR` or the global
 * `settings.json` (`sessionDir`) is watched too: pi keeps it flat.
 */
export const pi = createJsonlSource((ctx) => {
  const dir = piSessionsDir(ctx.env);
  // The settings are read once, when the source starts; a change takes a restart, as for pi itself.
  let settings: string | undefined;
  try {
    settings = unlessMissing(() => readFileSync(path.join(piAgentDir(ctx.env), 'settings.json'), 'utf8'));
  } catch {
    settings = undefined;
  }
  const custom = piCustomSessionsDir(ctx.env, settings);
  const flat = custom !== undefined && custom !== dir ? custom : undefined;
  const kindOf = (root: string, file: string): PiFileKind | undefined => classifyPiFile(root, file, root === flat);
  return {
    agent: 'pi',
    roots: [{ dir, depth: PI_TREE_DEPTH }, ...(flat ? [{ dir: flat, depth: 0 }] : [])],
    classify: (root, file) => kindOf(root, file)?.sessionId,
    skipDir: (name) => name !== 'subagent-artifacts' && !name.startsWith('--'),
    createParser: (file, sessionId, resumed) =>
      createPiParser(file, (flat && path.dirname(file) === flat ? kindOf(flat, file) : kindOf(dir, file)) ?? { kind: 'main', sessionId }, resumed),
  };
});
