import { AGENT_KINDS, type AgentKind } from '../core/agents.js';
import type { ActivityFilter } from '../core/activity.js';
import { webhookEntrySchema, type StoredConfig, type WebhookEntry } from './schema.js';

export const CARD_DENSITIES = ['compact', 'rich', 'live'] as const;
export type CardDensity = (typeof CARD_DENSITIES)[number];
export const TERMINALS = ['terminal', 'kitty'] as const;
export type TerminalChoice = (typeof TERMINALS)[number];
export const DETAIL_WIDTH = { min: 300, max: 2000, fallback: 400 } as const;

/** A webhook entry that failed validation: reported once at startup, never delivered to. */
export interface InvalidWebhook {
  readonly index: number;
  readonly name: string;
  readonly problems: readonly string[];
}

/** The configuration every component reads: back-filled, fallbacks applied, env override applied, frozen. */
export interface Config {
  readonly window_minutes: number;
  readonly default_filter: ActivityFilter;
  readonly editor: string;
  readonly launch_at_login: boolean;
  readonly notifications: boolean;
  readonly notify_after_sec: number;
  readonly agents: Readonly<Record<AgentKind, boolean>>;
  readonly claude_dirs: readonly string[];
  readonly exclude_cwd_substrings: readonly string[];
  /** Effective passphrase: AGENTWATCH_API_PASSPHRASE over the file value. */
  readonly api_passphrase: string;
  readonly api_salt: string;
  readonly tui: { readonly theme: 'auto' | 'dark' | 'light' };
  readonly card_density: CardDensity;
  readonly terminal: TerminalChoice;
  readonly detail_width: number;
  readonly webhooks: readonly WebhookEntry[];
}

export interface Effective {
  readonly config: Config;
  /** One line each, for stderr: fallbacks taken. */
  readonly warnings: readonly string[];
  readonly invalidWebhooks: readonly InvalidWebhook[];
}

const isOneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (values as readonly string[]).includes(value);

/** Pure: stored (validated, back-filled) config + env -> what the program runs with. */
export const toEffective = (stored: StoredConfig, env: Readonly<Record<string, string | undefined>>): Effective => {
  const warnings: string[] = [];

  let card_density: CardDensity = 'live';
  if (isOneOf(CARD_DENSITIES, stored.card_density)) card_density = stored.card_density;
  else warnings.push(`card_density ${JSON.stringify(stored.card_density)} is not one of compact, rich, live; using "live"`);

  let terminal: TerminalChoice = 'terminal';
  if (isOneOf(TERMINALS, stored.terminal)) terminal = stored.terminal;
  else warnings.push(`terminal ${JSON.stringify(stored.terminal)} is not one of terminal, kitty; using the platform default`);

  let detail_width: number = DETAIL_WIDTH.fallback;
  const width = stored.detail_width;
  if (typeof width === 'number' && Number.isInteger(width) && width >= DETAIL_WIDTH.min && width <= DETAIL_WIDTH.max) {
    detail_width = width;
  } else {
    warnings.push(`detail_width ${JSON.stringify(width)} is outside ${DETAIL_WIDTH.min}..${DETAIL_WIDTH.max}; using ${DETAIL_WIDTH.fallback}`);
  }

  const webhooks: WebhookEntry[] = [];
  const invalidWebhooks: InvalidWebhook[] = [];
  stored.webhooks.forEach((raw, index) => {
    const parsed = webhookEntrySchema.safeParse(raw);
    if (parsed.success) {
      webhooks.push(parsed.data);
      return;
    }
    const rawName = typeof raw === 'object' && raw !== null && 'name' in raw ? (raw as { name: unknown }).name : undefined;
    invalidWebhooks.push({
      index,
      name: typeof rawName === 'string' && rawName.trim() ? rawName : `#${index + 1}`,
      problems: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'entry'}: ${issue.message}`),
    });
  });

  const agents = Object.fromEntries(AGENT_KINDS.map((agent) => [agent, stored.agents[agent] !== false])) as Record<AgentKind, boolean>;
  const envPassphrase = env.AGENTWATCH_API_PASSPHRASE;

  const config: Config = {
    window_minutes: stored.window_minutes,
    default_filter: stored.default_filter,
    editor: stored.editor,
    launch_at_login: stored.launch_at_login,
    notifications: stored.notifications,
    notify_after_sec: stored.notify_after_sec,
    agents,
    claude_dirs: [...stored.claude_dirs],
    exclude_cwd_substrings: [...stored.exclude_cwd_substrings],
    api_passphrase: envPassphrase !== undefined && envPassphrase.trim() !== '' ? envPassphrase : stored.api_passphrase,
    api_salt: stored.api_salt,
    tui: { theme: stored.tui.theme },
    card_density,
    terminal,
    detail_width,
    webhooks,
  };
  return { config: deepFreeze(config), warnings, invalidWebhooks };
};

const deepFreeze = <T>(value: T): T => {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
};

/** A webhook entry as `GET /api/config` shows it: the secret replaced by whether there is one. */
export type PublicWebhook = Pick<WebhookEntry, 'name' | 'url' | 'events' | 'agents' | 'enabled' | 'signature'> & { readonly has_secret: boolean };

/** `GET /api/config` (and `PUT /api/config`'s answer): the effective config without secrets. */
export type PublicConfig = Omit<Config, 'api_passphrase' | 'api_salt' | 'webhooks'> & { readonly webhooks: readonly PublicWebhook[] };

/** The effective config without secrets, as `GET /api/config` returns it. */
export const publicConfig = (config: Config): PublicConfig => {
  const { api_passphrase: _p, api_salt: _s, webhooks, ...rest } = config;
  return { ...rest, webhooks: webhooks.map(({ secret: _secret, ...entry }) => ({ ...entry, has_secret: Boolean(_secret) })) };
};
