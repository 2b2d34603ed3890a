import type { AgentFacts } from '../descriptor.js';
import { demo } from './demo.js';
import { grokSessionsDir } from './paths.js';

/** As the Grok CLI documents it: `grok --resume <session-id>`. */
export const grokResumeCommand = (sessionId: string): string => `grok --resume ${sessionId}`;

export const grok = {
  kind: 'grok',
  label: 'Grok',
  glyph: 'G',
  colour: { tui: { dark: 255, light: 236 }, web: { dark: '#c7cbd3', light: '#3b4250' } },
  demo,
  storage: 'files',
  env: ['GROK_HOME'],
  locations: ({ env }) => [{ path: grokSessionsDir(env) }],
  stampRoots: ({ env }) => [grokSessionsDir(env)],
  hiddenUntilPrompted: true,
  // Sub-agents cannot be resumed on their own.
  resume: ({ sessionId, isSidechain }) => (isSidechain ? '' : grokResumeCommand(sessionId)),
  // Grok records no CLI version: the chat format is the version.
  checkedVersions: ['chat format 1'],
  limits: async () => (await import('./limits.js')).limits,
} as const satisfies AgentFacts;
