import type { Config } from '../config/effective.js';
import type { Env } from '../config/paths.js';
import { existsSync } from 'node:fs';
import type { AgentKind } from '../core/agents.js';
import { checkLocation, fromClaudeDirs, type LocationCheck } from './locations.js';
import { ampThreadsDir } from '../sources/amp/paths.js';
import { claudeProjectsDirs } from '../sources/claude/paths.js';
import { codexArchivedDir, codexSessionsDir } from '../sources/codex/paths.js';
import { cursorDbPath } from '../sources/cursor/paths.js';
import { grokSessionsDir } from '../sources/grok/paths.js';
import { kiloDbPaths } from '../sources/kilo/paths.js';
import { kimiRoot, kimiSessionsDir } from '../sources/kimi/paths.js';
import { opencodeDbPaths } from '../sources/opencode/paths.js';
import { piSessionDirs } from '../sources/pi/paths.js';

/** The "Looked in:" lines of an empty result: each place each agent's source reads, one per line. */
export const lookedInLines = (agents: readonly AgentKind[], config: Config, env: Env, platform: NodeJS.Platform): string[] => {
  const places = agents.flatMap((agent) => agentLocations(agent, config, env, platform).map((place) => `  ${agent.padEnd(9)}${place}`));
  return places.length > 0 ? ['Looked in:', ...places] : [];
};

/**
 * Where each agent's source reads, for the "no sessions" message (PRODUCT.md section 1: with no
 * sessions, every interface says where it looked). Built from the sources' own path functions.
 */
export const agentLocations = (agent: AgentKind, config: Config, env: Env, platform: NodeJS.Platform): string[] => {
  switch (agent) {
    case 'amp':
      return [ampThreadsDir(env)];
    case 'claude':
      return claudeProjectsDirs(config, env);
    case 'codex':
      return [codexSessionsDir(env)];
    case 'cursor':
      return [cursorDbPath(env, platform)];
    case 'grok':
      return [grokSessionsDir(env)];
    case 'kilo':
      return kiloDbPaths(env);
    case 'kimi':
      return [kimiSessionsDir(kimiRoot(env))];
    case 'opencode':
      return opencodeDbPaths(env);
    case 'pi':
      return piSessionDirs(env);
    default:
      return agent satisfies never;
  }
};

/** The agents whose sources read a database file rather than a directory. */
const DATABASE_AGENTS: ReadonlySet<AgentKind> = new Set(['cursor', 'opencode', 'kilo']);

/**
 * Each place `agent`'s source reads, checked (a stat and an access each): doctor's "looked in"
 * lines, and the location problems `sessions` prints. A `claude_dirs` entry is the config's.
 */
export const checkAgentLocations = async (agent: AgentKind, config: Config, env: Env, platform: NodeJS.Platform): Promise<LocationCheck[]> => {
  const expect = DATABASE_AGENTS.has(agent) ? 'file' : 'directory';
  const places = agentLocations(agent, config, env, platform);
  // Archived Codex threads are read too, but most people never archive one: named only when there.
  const archived = codexArchivedDir(env);
  if (agent === 'codex' && existsSync(archived)) places.push(archived);
  const checked = await Promise.all(places.map((place) => checkLocation(place, expect)));
  const configured = agent === 'claude' && config.claude_dirs.some((dir) => dir.trim() !== '');
  return configured ? checked.map(fromClaudeDirs) : checked;
};
