import { CONFIG_BOUNDS, type ConfigBounds } from './bounds.js';
import { fallbackWarnings } from './fallbacks.js';
import { configSchema, webhookEntrySchema, type ConfigShape, type StoredConfig, type WebhookEntry } from './schema.js';

export type { CardDensity, TerminalChoice } from './schema.js';

/** A webhook entry that failed validation: reported once at startup, never delivered to. */
export interface InvalidWebhook {
  readonly index: number;
  readonly name: string;
  readonly problems: readonly string[];
}

/**
 * The configuration every component reads: the schema's output (back-filled, each invalid value
 * read as its fallback), AGENTWATCH_API_PASSPHRASE applied, frozen.
 */
export type Config = Readonly<ConfigShape>;

export interface Effective {
  readonly config: Config;
  /** One line each, for stderr: fallbacks taken. */
  readonly warnings: readonly string[];
  readonly invalidWebhooks: readonly InvalidWebhook[];
}

/** Each webhook entry the schema left out, with why: the entry is kept in the file for the user to fix. */
const invalidWebhooksIn = (stored: StoredConfig): InvalidWebhook[] => {
  const entries = stored.webhooks;
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((raw: unknown, index): InvalidWebhook[] => {
    const parsed = webhookEntrySchema.safeParse(raw);
    if (parsed.success) return [];
    const rawName = typeof raw === 'object' && raw !== null && 'name' in raw ? (raw as { name: unknown }).name : undefined;
    return [
      {
        index,
        name: typeof rawName === 'string' && rawName.trim() ? rawName : `#${index + 1}`,
        problems: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'entry'}: ${issue.message}`),
      },
    ];
  });
};

/** Pure: the stored document (back-filled) + env -> what the program runs with. */
export const toEffective = (stored: StoredConfig, env: Readonly<Record<string, string | undefined>>): Effective => {
  const read = configSchema.parse(stored);
  const envPassphrase = env.AGENTWATCH_API_PASSPHRASE;
  const config: Config = envPassphrase !== undefined && envPassphrase.trim() !== '' ? { ...read, api_passphrase: envPassphrase } : read;
  return { config: deepFreeze(config), warnings: fallbackWarnings(stored), invalidWebhooks: invalidWebhooksIn(stored) };
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

/**
 * `GET /api/config` (and `PUT /api/config`'s answer): the effective config without secrets, and
 * the bounds of its whole-number keys, so the dashboard steps within the server's ranges.
 */
export type PublicConfig = Omit<Config, 'api_passphrase' | 'api_salt' | 'webhooks'> & { readonly webhooks: readonly PublicWebhook[]; readonly bounds: ConfigBounds };

/** The effective config without secrets, as `GET /api/config` returns it. */
export const publicConfig = (config: Config): PublicConfig => {
  const { api_passphrase: _p, api_salt: _s, webhooks, ...rest } = config;
  return { ...rest, webhooks: webhooks.map(({ secret: _secret, ...entry }) => ({ ...entry, has_secret: Boolean(_secret) })), bounds: CONFIG_BOUNDS };
};
