import type { AgentFacts } from '../descriptor.js';
import { demo } from './demo.js';
import { cursorDbPath } from './paths.js';
import { cursorProjectsDir } from './transcript-paths.js';

export const cursorResumeCommand = (composerId: string): string => `cursor-agent --resume="${composerId}"`;

export const cursor = {
  kind: 'cursor',
  label: 'Cursor',
  glyph: 'U',
  colour: { tui: { dark: 147, light: 61 }, web: { dark: '#a9b1bf', light: '#4f5866' } },
  demo,
  storage: 'sqlite',
  env: ['XDG_CONFIG_HOME', 'APPDATA'],
  locations: ({ env, platform }) => [{ path: cursorDbPath(env, platform) }, { path: cursorProjectsDir(env), onlyIfPresent: true }],
  stampRoots: () => [],
  resume: ({ sessionId }) => cursorResumeCommand(sessionId),
  // Cursor records no app version per chat: the composer format is the version.
  checkedVersions: ['composer _v 9', 'composer _v 10', '3.x composer headers', 'agent transcripts 2026'],
  limits: async () => (await import('./limits.js')).limits,
} as const satisfies AgentFacts;
