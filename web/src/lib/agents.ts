import looks from 'virtual:agentwatch-agents';
import type { AgentKind } from '../../../src/core/agents.js';

/**
 * How each agent is named and coloured, taken from the agent registry (src/sources/agents.ts)
 * when the dashboard is built (vite.config.ts): the page keeps no list of its own. Each agent's
 * colour is `--agent-<kind>` (lib/agent-css.ts).
 */
export const AGENT_LOOKS = looks;

export const AGENT_LABEL = Object.fromEntries(Object.entries(looks).map(([kind, look]) => [kind, look.label])) as Readonly<Record<AgentKind, string>>;
