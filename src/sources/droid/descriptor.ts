import type { AgentFacts } from '../descriptor.js';
import { demo } from './demo.js';
import { droidSessionsDir } from './paths.js';

export const droidResumeCommand = (sessionId: string): string => `droid --resume ${sessionId}`;

export const droid = {
  kind: 'droid',
  label: 'Droid',
  glyph: 'F',
  colour: { tui: { dark: 214, light: 130 }, web: { dark: '#f0a04b', light: '#a35c0f' } },
  demo,
  storage: 'files',
  env: ['FACTORY_HOME_OVERRIDE'],
  locations: ({ env }) => [{ path: droidSessionsDir(env) }],
  stampRoots: ({ env }) => [droidSessionsDir(env)],
  resume: ({ sessionId, isSidechain }) => (isSidechain ? '' : droidResumeCommand(sessionId)),
  // Droid records no app version in a session; `session_start` carries its format version.
  checkedVersions: ['session format 2'],
} as const satisfies AgentFacts;
