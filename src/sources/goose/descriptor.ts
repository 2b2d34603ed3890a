import type { AgentFacts } from '../descriptor.js';
import { demo } from './demo.js';
import { gooseDbPath } from './paths.js';

export const gooseResumeCommand = (sessionId: string): string => `goose session --resume --session-id ${sessionId}`;

export const goose = {
  kind: 'goose',
  label: 'Goose',
  glyph: 'E',
  colour: { tui: { dark: 209, light: 166 }, web: { dark: '#ff9e64', light: '#b35900' } },
  demo,
  storage: 'sqlite',
  env: ['GOOSE_PATH_ROOT', 'XDG_DATA_HOME', 'APPDATA'],
  locations: ({ env, platform }) => [{ path: gooseDbPath(env, platform) }],
  stampRoots: () => [],
  resume: ({ sessionId, isSidechain }) => (isSidechain ? '' : gooseResumeCommand(sessionId)),
  // Goose records no version per session: its schema version (schema_version) is the version.
  checkedVersions: ['schema 13'],
} as const satisfies AgentFacts;
