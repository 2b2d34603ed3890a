import type { AgentFacts } from '../descriptor.js';
import { piSessionDirs } from './paths.js';

export const piResumeCommand = (sessionId: string): string => `pi --session ${sessionId}`;

export const pi = {
  kind: 'pi',
  label: 'pi',
  glyph: 'π',
  colour: 'pi',
  storage: 'files',
  env: ['PI_CODING_AGENT_DIR', 'PI_CODING_AGENT_SESSION_DIR'],
  locations: ({ env }) => piSessionDirs(env).map((dir) => ({ path: dir })),
  stampRoots: ({ env }) => piSessionDirs(env),
  resume: ({ sessionId }) => piResumeCommand(sessionId),
  // pi records no app version in a session; 0.58.3 writes session format 3.
  checkedVersions: ['0.58.3'],
} as const satisfies AgentFacts;
