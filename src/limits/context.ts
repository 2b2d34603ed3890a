import type { Env } from '../config/paths.js';
import type { LimitAgent } from '../core/agents.js';
import type { HttpGet } from './http.js';
import type { KeychainRead } from './keychain.js';
import type { CursorTokenRead } from './cursor-db.js';

/**
 * What `fetchLimits` needs of the outside world. The CLI and the TUI build one; tests pass
 * their own env (temp HOME, loopback base URLs) and, for pure parts, their own clock.
 */
export interface LimitsCtx {
  readonly env: Env;
  readonly platform: NodeJS.Platform;
  /** Epoch ms; used for relative fields in payloads (codex `reset_after_seconds`). */
  readonly now: () => number;
  /** Per-request timeout; 10 s in production. */
  readonly timeoutMs: number;
  /** `agentwatch/<version> (+<homepage>)`: we never impersonate a vendor client. */
  readonly userAgent: string;
  readonly get: HttpGet;
  readonly readKeychain: KeychainRead;
  readonly readCursorToken: CursorTokenRead;
  /**
   * Where this agent's sessions are on this machine, when it has any (the caller knows the agents'
   * folders): an agent with sessions but no login is told what was looked for; one with neither
   * is skipped silently.
   */
  readonly sessionsAt?: (agent: LimitAgent) => Promise<string | undefined>;
}

/** The request timeout: 10 seconds per provider request (docs/limits.md). */
export const REQUEST_TIMEOUT_MS = 10_000;

export const userAgentOf = (version: string, homepage: string): string => `agentwatch/${version} (+${homepage})`;

const DEFAULT_BASES = {
  claude: 'https://api.anthropic.com',
  codex: 'https://chatgpt.com',
  grok: 'https://cli-chat-proxy.grok.com',
  kimi: 'https://api.kimi.com',
  cursor: 'https://cursor.com',
} as const satisfies Record<LimitAgent, string>;

/** The variable overriding each provider's base URL (for proxies and tests; docs/limits.md). */
const BASE_URL_VARS = {
  claude: 'AGENTWATCH_CLAUDE_API_URL',
  codex: 'AGENTWATCH_CODEX_API_URL',
  grok: 'AGENTWATCH_GROK_API_URL',
  kimi: 'AGENTWATCH_KIMI_API_URL',
  cursor: 'AGENTWATCH_CURSOR_WEB_URL',
} as const satisfies Record<LimitAgent, string>;

/**
 * A validated base URL without trailing slashes; `undefined` when the value is not an http(s)
 * URL, so the caller can report which variable is wrong.
 */
export const normalizeBase = (value: string): string | undefined => {
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    return value.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
};

export const baseUrlOf = (agent: LimitAgent, env: Env): { base?: string; variable: string; value: string } => {
  const variable = BASE_URL_VARS[agent];
  const value = env[variable]?.trim() || DEFAULT_BASES[agent];
  const base = normalizeBase(value);
  return { variable, value, ...(base ? { base } : {}) };
};
