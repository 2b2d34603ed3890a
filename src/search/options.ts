import { AGENT_KINDS, isAgentKind, type AgentKind } from '../core/agents.js';
import { UsageError } from '../core/io.js';

/** Sessions listed when no limit is asked for (`search`, GET /api/search). */
export const DEFAULT_LIMIT = 10;

/** `--agent claude,codex`: each must be an agent kind. `name` is how the message calls the value (the route's own parameter). */
export const parseAgentList = (value: string | undefined, name = '--agent'): AgentKind[] | undefined => {
  if (value === undefined || value === 'all') return undefined;
  const names = value.split(',').map((agent) => agent.trim()).filter(Boolean);
  const bad = names.find((agent) => !isAgentKind(agent));
  // The hint is the command's own help (as every usage error of a subcommand gives); the route uses the message only.
  if (bad !== undefined || names.length === 0) {
    throw new UsageError(`Invalid value for ${name}: ${JSON.stringify(value)} (a comma-separated list of ${AGENT_KINDS.join(', ')})`, 'Run agentwatch search --help');
  }
  return names as AgentKind[];
};
