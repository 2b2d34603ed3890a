declare module 'virtual:agentwatch-agents' {
  import type { AgentKind } from '../../src/core/agents.js';
  import type { AgentLook } from '../../src/sources/agent-tables.js';

  const looks: Readonly<Record<AgentKind, AgentLook>>;
  export default looks;
}

declare module 'virtual:agentwatch-agents.css';
