import path from 'node:path';
import { homeDir, type Env } from '../../config/paths.js';
import { levelsBelow, segmentsBelow } from '../internal/walk.js';

/** Kimi Code's data root: `$KIMI_SHARE_DIR`, else `$KIMI_CODE_HOME`, else `~/.kimi-code` (both OSes). */
export const kimiRoot = (env: Env): string => env.KIMI_SHARE_DIR || env.KIMI_CODE_HOME || path.join(homeDir(env), '.kimi-code');

export const kimiSessionsDir = (root: string): string => path.join(root, 'sessions');
export const kimiIndexFile = (root: string): string => path.join(root, 'session_index.jsonl');

/** `sessions/<wd_…>/<session>/agents/<agent>/wire.jsonl`: the wire file sits 4 directory levels down. */
export const KIMI_WIRE_DEPTH = 4;
/** `sessions/<wd_…>/<session>/state.json`. */
const KIMI_STATE_DEPTH = 2;

/** Sub-agent sessions get their own id, `<session>:<agent>`, so they fold apart from the main stream. */
const kimiSubagentId = (sessionId: string, agentId: string): string => `${sessionId}:${agentId}`;

export interface KimiWireFile {
  readonly sessionId: string;
  /** The session directory name (the id `kimi --resume` takes). */
  readonly parentId: string;
  readonly isSubagent: boolean;
}

/** Which session a file under `sessions/` feeds, or undefined when it is not a wire stream. */
export const classifyKimiFile = (sessionsDir: string, file: string): KimiWireFile | undefined => {
  const parts = segmentsBelow(sessionsDir, file);
  if (parts?.length !== 5 || parts[2] !== 'agents' || parts[4] !== 'wire.jsonl') return undefined;
  const [workDir, session, , agentId] = parts as [string, string, string, string, string];
  if (!workDir || !session || !agentId) return undefined;
  return agentId === 'main'
    ? { sessionId: session, parentId: session, isSubagent: false }
    : { sessionId: kimiSubagentId(session, agentId), parentId: session, isSubagent: true };
};

/** Where Kimi Code's earlier v2 layout kept a session's `state.json`: `<session>/session-meta/` (still read by Kimi for compatibility). */
const KIMI_LEGACY_META_DIR = 'session-meta';

/**
 * `state.json` of a session directory (the title), keyed by the session directory name; also the
 * one of the earlier layout, `<session>/session-meta/state.json`, which Kimi Code still reads
 * when the session has no `state.json` of its own (`legacy` says which).
 */
export const kimiStateFile = (sessionsDir: string, file: string): { readonly sessionId: string; readonly legacy: boolean } | undefined => {
  if (path.basename(file) !== 'state.json') return undefined;
  const dir = path.dirname(file);
  const depth = levelsBelow(sessionsDir, dir);
  if (depth === KIMI_STATE_DEPTH) return { sessionId: path.basename(dir), legacy: false };
  if (depth === KIMI_STATE_DEPTH + 1 && path.basename(dir) === KIMI_LEGACY_META_DIR) return { sessionId: path.basename(path.dirname(dir)), legacy: true };
  return undefined;
};

/** The session a `state.json` names (either layout), or undefined. */
export const kimiStateSession = (sessionsDir: string, file: string): string | undefined => kimiStateFile(sessionsDir, file)?.sessionId;
