import type { AgentFacts } from '../descriptor.js';
import { demo } from './demo.js';
import { qwenProjectsDir, qwenTmpDir } from './paths.js';

export const qwenResumeCommand = (sessionId: string): string => `qwen --resume ${sessionId}`;

export const qwen = {
  kind: 'qwen',
  label: 'Qwen',
  glyph: 'Q',
  colour: { tui: { dark: 99, light: 56 }, web: { dark: '#8c7cf0', light: '#5a48c8' } },
  demo,
  storage: 'files',
  env: ['QWEN_RUNTIME_DIR'],
  // The older single-document chats, where a machine still has them.
  locations: ({ env }) => [{ path: qwenProjectsDir(env) }, { path: qwenTmpDir(env), onlyIfPresent: true }],
  stampRoots: ({ env }) => [qwenProjectsDir(env), qwenTmpDir(env)],
  // Qwen Code resumes its JSONL chats only, not the older single-document ones.
  resume: ({ sessionId, path }) => (path?.endsWith('.json') ? '' : qwenResumeCommand(sessionId)),
  // Each record names the CLI version that wrote it.
  checkedVersions: ['0.18'],
} as const satisfies AgentFacts;
