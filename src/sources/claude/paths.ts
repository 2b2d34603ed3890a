import path from 'node:path';
import type { Config } from '../../config/effective.js';
import { expandHome, homeDir, type Env } from '../../config/paths.js';
import { jsonlBelow } from '../internal/walk.js';

/**
 * Claude base directories (docs/formats/claude.md): config `claude_dirs` alone when set; otherwise
 * `$CLAUDE_CONFIG_DIR` plus `~/.claude` when they differ; otherwise `~/.claude`.
 */
export const claudeBaseDirs = (config: Pick<Config, 'claude_dirs'>, env: Env): string[] => {
  const configured = config.claude_dirs.map((dir) => dir.trim()).filter(Boolean);
  if (configured.length > 0) return [...new Set(configured.map((dir) => path.resolve(expandHome(dir, env))))];
  const home = path.join(homeDir(env), '.claude');
  const fromEnv = env.CLAUDE_CONFIG_DIR?.trim();
  if (fromEnv && path.resolve(expandHome(fromEnv, env)) !== path.resolve(home)) return [path.resolve(expandHome(fromEnv, env)), home];
  return [home];
};

export const claudeProjectsDirs = (config: Pick<Config, 'claude_dirs'>, env: Env): string[] =>
  claudeBaseDirs(config, env).map((base) => path.join(base, 'projects'));

/** Claude Desktop "code" session sidecars; only macOS has them. */
export const claudeDesktopDir = (env: Env, platform: NodeJS.Platform): string | undefined =>
  platform === 'darwin' ? path.join(homeDir(env), 'Library', 'Application Support', 'Claude', 'claude-code-sessions') : undefined;

/** Where a transcript sits below `projects/` (docs/formats/claude.md). */
export type ClaudeFileKind =
  | { readonly kind: 'main'; readonly sessionId: string }
  /**
   * `<project>/<session>/subagents/agent-<id>.jsonl` (current), and a workflow's agents one run
   * folder deeper: `<project>/<session>/subagents/workflows/<run>/agent-<id>.jsonl` (2.1.154+)
   */
  | { readonly kind: 'subagent'; readonly sessionId: string; readonly parentId: string }
  /** `<project>/agent-<id>.jsonl` (Claude Code 2.0.x sidechains) */
  | { readonly kind: 'legacy-agent'; readonly sessionId: string };

export const classifyClaudeFile = (projectsDir: string, file: string): ClaudeFileKind | undefined => {
  const found = jsonlBelow(projectsDir, file);
  if (!found) return undefined;
  const { parts, stem: sessionId } = found;
  if (parts.length === 2) return sessionId.startsWith('agent-') ? { kind: 'legacy-agent', sessionId } : { kind: 'main', sessionId };
  if (parts.length === 4 && parts[2] === 'subagents') return { kind: 'subagent', sessionId, parentId: parts[1] ?? '' };
  // A workflow run's folder also holds its journal (`journal.jsonl`): only its agents are transcripts.
  if (parts.length === 6 && parts[2] === 'subagents' && parts[3] === 'workflows' && sessionId.startsWith('agent-')) {
    return { kind: 'subagent', sessionId, parentId: parts[1] ?? '' };
  }
  return undefined;
};

/**
 * The main transcript (`<project>/<session>.jsonl`) of the session `parentId` whose sub-agent
 * transcript is `file` (`<project>/<session>/subagents/[workflows/<run>/]agent-<id>.jsonl`), or
 * undefined when `file` does not lie so.
 */
export const parentTranscriptOf = (file: string, parentId: string): string | undefined => {
  let dir = path.dirname(file);
  for (let up = 0; up < 3; up += 1) {
    const session = path.dirname(dir);
    if (path.basename(dir) === 'subagents' && path.basename(session) === parentId) return path.join(path.dirname(session), `${parentId}.jsonl`);
    dir = session;
  }
  return undefined;
};

/** Depth of `<project>/<session>/subagents/workflows/<run>/` below `projects/`. */
export const CLAUDE_TREE_DEPTH = 5;
/** Per-session folders also hold tool outputs; never descend there. */
export const claudeSkipDir = (name: string): boolean => name === 'tool-results';
