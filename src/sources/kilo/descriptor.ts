import type { AgentFacts } from '../descriptor.js';
import { demo } from './demo.js';
import { kiloDbPaths } from './paths.js';

export const kiloResumeCommand = (sessionId: string): string => `kilo --session=${sessionId}`;

export const kilo = {
  kind: 'kilo',
  label: 'Kilo',
  glyph: 'L',
  colour: { tui: { dark: 220, light: 136 }, web: { dark: '#b49cf0', light: '#6b4cc4' } },
  demo,
  storage: 'sqlite',
  env: ['KILO_DATA_DIR', 'XDG_DATA_HOME'],
  locations: ({ env }) => kiloDbPaths(env).map((file) => ({ path: file })),
  stampRoots: () => [],
  resume: ({ sessionId }) => kiloResumeCommand(sessionId),
  checkedVersions: ['7.3.12'],
} as const satisfies AgentFacts;
