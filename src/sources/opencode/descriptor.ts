import type { AgentFacts } from '../descriptor.js';
import { demo } from './demo.js';
import { opencodeDbPaths } from './paths.js';

export const opencodeResumeCommand = (sessionId: string): string => `opencode -s ${sessionId}`;

export const opencode = {
  kind: 'opencode',
  label: 'OpenCode',
  glyph: 'O',
  colour: { tui: { dark: 150, light: 64 }, web: { dark: '#d7b56d', light: '#8a6414' } },
  demo,
  storage: 'sqlite',
  env: ['OPENCODE_DATA_DIR', 'OPENCODE_DB', 'XDG_DATA_HOME'],
  locations: ({ env }) => opencodeDbPaths(env).map((file) => ({ path: file })),
  stampRoots: () => [],
  resume: ({ sessionId }) => opencodeResumeCommand(sessionId),
  checkedVersions: ['1.3.10', '1.18.31', '2.0.3-2.0.12'],
} as const satisfies AgentFacts;
