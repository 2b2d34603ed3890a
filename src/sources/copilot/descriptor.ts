import type { AgentFacts } from '../descriptor.js';
import { demo } from './demo.js';
import { copilotSessionsDir } from './paths.js';

export const copilotResumeCommand = (sessionId: string): string => `copilot --resume ${sessionId}`;

export const copilot = {
  kind: 'copilot',
  label: 'Copilot',
  glyph: 'H',
  colour: { tui: { dark: 141, light: 91 }, web: { dark: '#b392f0', light: '#6f42c1' } },
  demo,
  storage: 'files',
  env: ['COPILOT_HOME'],
  locations: ({ env }) => [{ path: copilotSessionsDir(env) }],
  stampRoots: ({ env }) => [copilotSessionsDir(env)],
  resume: ({ sessionId }) => copilotResumeCommand(sessionId),
  // `session.start` names the CLI version; the event log is schema version 1.
  checkedVersions: ['1.0.78-1.0.81 (events v1)'],
} as const satisfies AgentFacts;
