import type { AgentFacts } from '../descriptor.js';
import { demo } from './demo.js';
import { codexArchivedDir, codexSessionIndexPath, codexSessionsDir } from './paths.js';

export const codexResumeCommand = (sessionId: string): string => `codex resume ${sessionId}`;

export const codex = {
  kind: 'codex',
  label: 'Codex',
  glyph: 'X',
  colour: { tui: { dark: 79, light: 29 }, web: { dark: '#6fbf8e', light: '#2f7d4f' } },
  demo,
  storage: 'files',
  env: ['CODEX_HOME'],
  // Archived threads are read too, but most people never archive one.
  locations: ({ env }) => [{ path: codexSessionsDir(env) }, { path: codexArchivedDir(env), onlyIfPresent: true }],
  stampRoots: ({ env }) => [codexSessionsDir(env), codexArchivedDir(env), codexSessionIndexPath(env)],
  resume: ({ sessionId }) => codexResumeCommand(sessionId),
  // Each sub-agent thread (a spawned agent, `/review`) is a rollout of its own with its own totals.
  subagentsRollUp: true,
  checkedVersions: ['0.104 (Desktop)', '0.118', '0.125', '0.128 (Desktop)', '0.135-0.160'],
  limits: async () => (await import('./limits.js')).limits,
} as const satisfies AgentFacts;
