import type { AgentFacts } from '../descriptor.js';
import { demo } from './demo.js';
import { ampDataDir, ampThreadsDir } from './paths.js';

export const ampResumeCommand = (threadId: string): string => `amp threads continue ${threadId}`;

export const amp = {
  kind: 'amp',
  label: 'Amp',
  glyph: 'A',
  colour: { tui: { dark: 204, light: 161 }, web: { dark: '#e48bbd', light: '#b03c7c' } },
  demo,
  storage: 'files',
  env: ['XDG_DATA_HOME'],
  locations: ({ env }) => [{ path: ampThreadsDir(env) }],
  // The whole data directory: the thread exports land in threads/, their bookkeeping beside it.
  stampRoots: ({ env }) => [ampDataDir(env)],
  resume: ({ sessionId }) => ampResumeCommand(sessionId),
  checkedVersions: ['0.0.1785164324-gd1fcef', '0.0.1785170481-ga5b614'],
  localUntil: {
    date: '2026-03-31',
    note: 'Amp keeps new threads on its servers and writes no local thread files since about 2026-03-31; agentwatch sees them only through `amp threads export`, run while the monitor watches with `amp` on PATH (`amp threads list --json` lists them)',
  },
} as const satisfies AgentFacts;
