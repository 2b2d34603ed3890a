import type { AgentFacts } from '../descriptor.js';
import { kimiIndexFile, kimiRoot, kimiSessionsDir } from './paths.js';

/** Takes the session directory's name. */
export const kimiResumeCommand = (sessionId: string): string => `kimi --resume ${sessionId}`;

export const kimi = {
  kind: 'kimi',
  label: 'Kimi',
  glyph: 'K',
  colour: 'kimi',
  storage: 'files',
  env: ['KIMI_SHARE_DIR', 'KIMI_CODE_HOME'],
  locations: ({ env }) => [{ path: kimiSessionsDir(kimiRoot(env)) }],
  stampRoots: ({ env }) => [kimiSessionsDir(kimiRoot(env)), kimiIndexFile(kimiRoot(env))],
  resume: ({ sessionId }) => kimiResumeCommand(sessionId),
  // Kimi Code records no app version in a session: the wire protocol is the version.
  checkedVersions: ['wire protocol 1.0-1.5'],
} as const satisfies AgentFacts;
