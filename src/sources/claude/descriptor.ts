import path from 'node:path';
import type { AgentFacts } from '../descriptor.js';
import { demo } from './demo.js';
import { claudeDesktopDir, claudeProjectsDirs } from './paths.js';

export const claudeResumeCommand = (sessionId: string): string => `claude --resume ${sessionId}`;

export const claude = {
  kind: 'claude',
  label: 'Claude',
  glyph: 'C',
  colour: { tui: { dark: 209, light: 166 }, web: { dark: '#d98a6a', light: '#b35a36' } },
  demo,
  storage: 'files',
  env: ['CLAUDE_CONFIG_DIR'],
  locations: ({ config, env }) => {
    // `claude_dirs` entries, when set, replace ~/.claude: each must hold a projects/ folder.
    const configured = config.claude_dirs.some((dir) => dir.trim() !== '');
    return claudeProjectsDirs(config, env).map((dir) =>
      configured ? { path: dir, configEntry: { key: 'claude_dirs', entry: path.dirname(dir), holds: 'projects/' } } : { path: dir },
    );
  },
  stampRoots: ({ config, env, platform }) => {
    const desktop = claudeDesktopDir(env, platform);
    return [...claudeProjectsDirs(config, env), ...(desktop ? [desktop] : [])];
  },
  resume: ({ sessionId }) => claudeResumeCommand(sessionId),
  // Each sub-agent's turns are a transcript of its own; the user paid for them in the parent session.
  subagentsRollUp: true,
  checkedVersions: ['1.0.98', '2.0.14-2.0.31', '2.1.7', '2.1.37-2.1.278'],
  limits: async () => (await import('./limits.js')).limits,
} as const satisfies AgentFacts;
