import path from 'node:path';
import { homeDir, type Env } from '../../config/paths.js';
import { jsonlBelow } from '../internal/walk.js';

/** `$PI_CODING_AGENT_DIR/sessions` (pi's own override), else `~/.pi/agent/sessions`. */
export const piSessionsDir = (env: Env): string => {
  const agentDir = env.PI_CODING_AGENT_DIR?.trim();
  return path.join(agentDir ? path.resolve(agentDir) : path.join(homeDir(env), '.pi', 'agent'), 'sessions');
};

/** `--<cwd>--/<file>.jsonl`, and sub-agent runs below `--<cwd>--/subagent-artifacts/`. */
export const PI_TREE_DEPTH = 2;

export type PiFileKind = { readonly kind: 'main' | 'subagent'; readonly sessionId: string };

/** pi's session id is the file-name stem (`<iso-ts>_<uuid>`), PRODUCT.md section 6. */
export const classifyPiFile = (sessionsDir: string, file: string): PiFileKind | undefined => {
  const found = jsonlBelow(sessionsDir, file);
  if (!found) return undefined;
  const { parts, stem: sessionId } = found;
  if (parts.length === 2) return { kind: 'main', sessionId };
  if (parts.length === 3 && parts[1] === 'subagent-artifacts') return { kind: 'subagent', sessionId };
  return undefined;
};

export const piResumeCommand = (sessionId: string): string => `pi --session ${sessionId}`;
