import { AGENT_KINDS } from './agent-kinds.js';

export { AGENT_KINDS };

export type AgentKind = (typeof AGENT_KINDS)[number];

export const isAgentKind = (value: string): value is AgentKind => (AGENT_KINDS as readonly string[]).includes(value);

/** The five agents whose rate-limit windows `agentwatch limits` reports. */
export const LIMIT_AGENTS = ['claude', 'codex', 'grok', 'kimi', 'cursor'] as const;
export type LimitAgent = (typeof LIMIT_AGENTS)[number];
