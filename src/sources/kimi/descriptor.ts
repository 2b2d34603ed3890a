import type { AgentFacts } from '../descriptor.js';
import { demo } from './demo.js';
import { kimiLegacyRoot, kimiLegacySessionsDir } from './legacy-paths.js';
import { kimiIndexFile, kimiRoot, kimiSessionsDir } from './paths.js';

/** The Kimi CLI's sessions directory, when it is not Kimi Code's own. */
const legacyDirs = (env: Parameters<typeof kimiRoot>[0]): string[] => {
  const root = kimiLegacyRoot(env);
  return root === undefined ? [] : [kimiLegacySessionsDir(root)];
};

/** Takes the session directory's name. */
export const kimiResumeCommand = (sessionId: string): string => `kimi --resume ${sessionId}`;

export const kimi = {
  kind: 'kimi',
  label: 'Kimi',
  glyph: 'K',
  colour: { tui: { dark: 39, light: 25 }, web: { dark: '#6aa8e6', light: '#2d6cb0' } },
  demo,
  storage: 'files',
  env: ['KIMI_SHARE_DIR', 'KIMI_CODE_HOME'],
  locations: ({ env }) => [{ path: kimiSessionsDir(kimiRoot(env)) }, ...legacyDirs(env).map((dir) => ({ path: dir, onlyIfPresent: true }))],
  stampRoots: ({ env }) => [kimiSessionsDir(kimiRoot(env)), kimiIndexFile(kimiRoot(env)), ...legacyDirs(env)],
  hiddenUntilPrompted: true,
  resume: ({ sessionId }) => kimiResumeCommand(sessionId),
  // Kimi Code records no app version in a session: the wire protocol is the version.
  checkedVersions: ['wire protocol 1.0-1.5', 'Kimi CLI wire protocol 1.1-1.10'],
  limits: async () => (await import('./limits.js')).limits,
} as const satisfies AgentFacts;
