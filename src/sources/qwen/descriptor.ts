import type { AgentFacts } from '../descriptor.js';
import { qwenProjectsDir } from './paths.js';

export const qwenResumeCommand = (sessionId: string): string => `qwen --resume ${sessionId}`;

export const qwen = {
  kind: 'qwen',
  label: 'Qwen',
  glyph: 'Q',
  colour: 'qwen',
  storage: 'files',
  env: ['QWEN_RUNTIME_DIR'],
  locations: ({ env }) => [{ path: qwenProjectsDir(env) }],
  stampRoots: ({ env }) => [qwenProjectsDir(env)],
  resume: ({ sessionId }) => qwenResumeCommand(sessionId),
  // Each record names the CLI version that wrote it.
  checkedVersions: ['0.18'],
} as const satisfies AgentFacts;
