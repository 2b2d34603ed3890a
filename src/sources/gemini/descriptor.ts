import type { AgentFacts } from '../descriptor.js';
import { demo } from './demo.js';
import { geminiProjectsFile, geminiTmpDir } from './paths.js';

/** Gemini CLI resumes a session of the current project by its id. */
export const geminiResumeCommand = (sessionId: string): string => `gemini --resume ${sessionId}`;

export const gemini = {
  kind: 'gemini',
  label: 'Gemini',
  glyph: 'M',
  colour: { tui: { dark: 75, light: 26 }, web: { dark: '#7aa2f7', light: '#3461c4' } },
  demo,
  storage: 'files',
  env: ['GEMINI_CLI_HOME'],
  locations: ({ env }) => [{ path: geminiTmpDir(env) }],
  stampRoots: ({ env }) => [geminiTmpDir(env), geminiProjectsFile(env)],
  // A sub-agent's chat cannot be resumed on its own.
  resume: ({ sessionId, isSidechain }) => (isSidechain ? '' : geminiResumeCommand(sessionId)),
  // Gemini CLI records no version in a chat file.
  checkedVersions: ['0.23.0', '0.37.0', '0.56.0'],
} as const satisfies AgentFacts;
