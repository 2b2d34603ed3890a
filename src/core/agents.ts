/** Every agent kind agentwatch knows, in the order the spec lists them. */
export const AGENT_KINDS = ['amp', 'claude', 'codex', 'cursor', 'grok', 'kilo', 'kimi', 'opencode', 'pi'] as const;

export type AgentKind = (typeof AGENT_KINDS)[number];

export const isAgentKind = (value: string): value is AgentKind => (AGENT_KINDS as readonly string[]).includes(value);

/** One-letter prefixes shown before a session in compact views (claude has none; Desktop gets `D`). */
export const AGENT_PREFIX = {
  amp: 'A',
  claude: '',
  codex: 'X',
  cursor: 'C',
  grok: 'G',
  kilo: 'L',
  kimi: 'K',
  opencode: 'O',
  pi: 'π',
} as const satisfies Record<AgentKind, string>;

/** Human labels for tables and notifications. */
export const AGENT_LABEL = {
  amp: 'Amp',
  claude: 'Claude',
  codex: 'Codex',
  cursor: 'Cursor',
  grok: 'Grok',
  kilo: 'Kilo',
  kimi: 'Kimi',
  opencode: 'OpenCode',
  pi: 'pi',
} as const satisfies Record<AgentKind, string>;

/** The five agents whose rate-limit windows `agentwatch limits` reports. */
export const LIMIT_AGENTS = ['claude', 'codex', 'grok', 'kimi', 'cursor'] as const;
export type LimitAgent = (typeof LIMIT_AGENTS)[number];
