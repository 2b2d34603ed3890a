import path from 'node:path';
import { createJsonlSource } from '../internal/jsonl-source.js';
import type { JsonlAgentSpec } from '../internal/file-parser.js';
import type { SourceCtx } from '../internal/options.js';
import { desktopSideFiles } from './desktop.js';
import { createClaudeParser } from './parse.js';
import { CLAUDE_TREE_DEPTH, claudeDesktopDir, claudeProjectsDirs, claudeSkipDir, classifyClaudeFile, parentTranscriptOf, type ClaudeFileKind } from './paths.js';

/**
 * Claude Code: `<base>/projects/<project>/<session>.jsonl` for every base directory, sub-agent
 * transcripts below `<session>/subagents/` and old `agent-*.jsonl` (hidden sidechains), plus the
 * Desktop sidecars on macOS.
 *
 * The spec the engine runs; exported for tests that drive its file tracker directly.
 */
export const claudeSpec = (ctx: SourceCtx): JsonlAgentSpec => {
  const projectsDirs = claudeProjectsDirs(ctx.config, ctx.env);
  const desktop = claudeDesktopDir(ctx.env, ctx.platform);
  const kindOf = (file: string): ClaudeFileKind | undefined => {
    for (const dir of projectsDirs) {
      if (!file.startsWith(dir + path.sep)) continue;
      const kind = classifyClaudeFile(dir, file);
      if (kind) return kind;
    }
    return undefined;
  };
  return {
    agent: 'claude',
    roots: projectsDirs.map((dir) => ({ dir, depth: CLAUDE_TREE_DEPTH })),
    classify: (root, file) => classifyClaudeFile(root, file)?.sessionId,
    skipDir: claudeSkipDir,
    // Sub-agent transcripts roll their usage up into the parent session, which may be written later.
    feeds: (file) => {
      const kind = kindOf(file);
      if (kind?.kind === 'subagent') return parentTranscriptOf(file, kind.parentId) ?? true;
      return kind?.kind === 'legacy-agent' ? true : undefined;
    },
    createParser: (file, sessionId, resumed, restored, born) => createClaudeParser(file, kindOf(file) ?? { kind: 'main', sessionId }, resumed, restored, born),
    ...(desktop ? { sideFiles: desktopSideFiles(desktop) } : {}),
  };
};

export const claude = createJsonlSource(claudeSpec);
