import type { AgentFacts } from '../descriptor.js';
import { demo } from './demo.js';
import { crushProjects } from './registry.js';
import { crushRegistryPath } from './paths.js';

/** A path as one shell word: as it is when it needs no quoting, else single-quoted. */
const shellWord = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** `crush --cwd <project> --session <id>`: Crush keeps sessions per project, so it must start in that one. */
export const crushResumeCommand = (project: string, sessionId: string): string =>
  project === '' ? `crush --session ${sessionId}` : `crush --cwd ${shellWord(project)} --session ${sessionId}`;

export const crush = {
  kind: 'crush',
  label: 'Crush',
  glyph: 'R',
  colour: { tui: { dark: 205, light: 162 }, web: { dark: '#ff6e9c', light: '#c2185b' } },
  demo,
  storage: 'sqlite',
  env: ['CRUSH_GLOBAL_DATA', 'XDG_DATA_HOME'],
  // The registry first (no registry: Crush never ran), then every project database it names.
  locations: ({ env, platform }) => [{ path: crushRegistryPath(env, platform) }, ...crushProjects(env, platform).map(({ dbPath }) => ({ path: dbPath }))],
  stampRoots: () => [],
  // The session row does not name its project: the source records the full command.
  resume: ({ sessionId, isSidechain }) => (isSidechain ? '' : crushResumeCommand('', sessionId)),
  // Crush records no version in its database: the schema of its migrations is the version.
  checkedVersions: ['0.90 (schema 20260127 read_files)'],
} as const satisfies AgentFacts;
