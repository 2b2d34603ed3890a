import type { Config } from '../config/effective.js';
import type { Env } from '../config/paths.js';
import { existsSync } from 'node:fs';
import type { AgentKind } from '../core/agents.js';
import { checkLocation, fromConfigEntry, type LocationCheck } from './locations.js';
import { agentAllLocations, agentLocations as registryLocations, AGENTS } from '../sources/agents.js';

/** The "Looked in:" lines of an empty result: each place each agent's source reads, one per line. */
export const lookedInLines = (agents: readonly AgentKind[], config: Config, env: Env, platform: NodeJS.Platform): string[] => {
  const places = agents.flatMap((agent) => agentLocations(agent, config, env, platform).map((place) => `  ${agent.padEnd(9)}${place}`));
  return places.length > 0 ? ['Looked in:', ...places] : [];
};

/** Where each agent's source reads, for the "no sessions" message: with no sessions, every interface says where it looked. */
export const agentLocations = (agent: AgentKind, config: Config, env: Env, platform: NodeJS.Platform): string[] =>
  registryLocations(agent, { config, env, platform });

/**
 * Each place `agent`'s source reads, checked (a stat and an access each): doctor's "looked in"
 * lines, and the location problems `sessions` prints.
 */
export const checkAgentLocations = async (agent: AgentKind, config: Config, env: Env, platform: NodeJS.Platform): Promise<LocationCheck[]> => {
  const expect = AGENTS[agent].storage === 'sqlite' ? 'file' : 'directory';
  const places = agentAllLocations(agent, { config, env, platform }).filter((place) => place.onlyIfPresent !== true || existsSync(place.path));
  return Promise.all(
    places.map(async (place) => {
      const checked = await checkLocation(place.path, expect);
      return place.configEntry ? fromConfigEntry(checked, place.configEntry) : checked;
    }),
  );
};
