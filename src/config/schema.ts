import { z } from 'zod';
import { ACTIVITIES, ACTIVITY_FILTERS } from '../core/activity.js';
import { AGENT_KINDS } from '../core/agents.js';
import { standardSecretProblem } from './standard-secret.js';
import { closest } from '../util/closest.js';

/**
 * The one source of truth for `config.json`. `.default()` back-fills missing keys; fields with a
 * documented fallback (spec 7 rule 8) are read leniently in `effective.ts`, never here, so a bad
 * value is reported once and the file is left as the user wrote it.
 */

export const MIN_PASSPHRASE_LENGTH = 12;

/** A passphrase's length as a person counts it: code points, surrounding whitespace left out (an emoji is one, not two). */
export const passphraseLength = (passphrase: string): number => [...passphrase.trim()].length;

const agentsSchema = z
  .object(Object.fromEntries(AGENT_KINDS.map((agent) => [agent, z.boolean().default(true)])) as Record<
    (typeof AGENT_KINDS)[number],
    z.ZodDefault<z.ZodBoolean>
  >)
  .loose()
  .describe('Per-agent switch; a disabled agent is skipped even under --agent all.');

/** Webhook `events` values: a target activity, or "active" as in `default_filter` (spec section 3). */
export const WEBHOOK_EVENTS = ['active', ...ACTIVITIES] as const;

/**
 * The message of a value that is not one of `allowed` in a list field: every allowed one, the value
 * given, and the allowed value it is probably a typo of (`...: "wating" is not one (did you mean "waiting"?)`).
 */
const notOneOf = (field: string, what: string, allowed: readonly string[]) => (issue: { readonly input?: unknown }): string => {
  const guess = typeof issue.input === 'string' ? closest(issue.input, allowed) : undefined;
  const given = typeof issue.input === 'string' ? `: ${JSON.stringify(issue.input)} is not one${guess ? ` (did you mean "${guess}"?)` : ''}` : '';
  return `${field} must list ${what} (${allowed.join(', ')})${given}`;
};

export const webhookEntrySchema = z
  .object({
    name: z.string().trim().min(1, 'name must be a non-empty string'),
    url: z
      .url({ protocol: /^https?$/, error: 'url must be an http:// or https:// URL' })
      .describe('Receiver; gets one POST per matching transition.'),
    secret: z.string().optional().describe('When set, bodies are signed: X-Agentwatch-Signature: sha256=<hex>.'),
    events: z
      .array(z.enum(WEBHOOK_EVENTS, { error: notOneOf('events', 'activity states', WEBHOOK_EVENTS) }))
      .default([])
      .describe('Target activities to deliver ("active" = any but idle and waiting); empty means all.'),
    agents: z
      .array(z.enum(AGENT_KINDS, { error: notOneOf('agents', 'agent kinds', AGENT_KINDS) }))
      .default([])
      .describe('Agents to deliver for; empty means all.'),
    enabled: z.boolean().default(true),
    signature: z
      .enum(['agentwatch', 'standard-webhooks'], { error: 'signature must be "agentwatch" or "standard-webhooks"' })
      .optional()
      .describe('agentwatch (default): X-Agentwatch-Signature sha256=<hex>; standard-webhooks: webhook-id/-timestamp/-signature with a whsec_ secret.'),
  })
  .loose()
  .superRefine((entry, ctx) => {
    if (entry.signature !== 'standard-webhooks') return;
    const problem = standardSecretProblem(entry.secret);
    if (problem) ctx.addIssue({ code: 'custom', path: ['secret'], message: problem });
  });

export type WebhookEntry = z.infer<typeof webhookEntrySchema>;

/**
 * The types of a webhook entry's fields, checked with the rest of the file: a wrongly typed value
 * (`"enabled": "no"`) makes the whole config invalid, as anywhere else. What a correctly typed
 * value means (an http URL, a known event) is `webhookEntrySchema`'s, checked per entry in
 * effective.ts, so such a mistake only keeps that entry from running.
 */
const webhookFieldTypes = z.object({
  name: z.string().optional(),
  url: z.string().optional(),
  secret: z.string().optional(),
  events: z.array(z.string()).optional(),
  agents: z.array(z.string()).optional(),
  enabled: z.boolean().optional(),
  signature: z.string().optional(),
});

/** An entry as the file holds it (never reshaped: a back-fill writes it back as it was), its field types checked. */
const storedWebhookEntry = z.unknown().superRefine((entry, ctx) => {
  const checked = webhookFieldTypes.safeParse(entry);
  if (!checked.success) for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
});

export const configSchema = z
  .object({
    window_minutes: z.int().min(1).max(10_080).default(30).describe('Minutes of session visibility.'),
    default_filter: z.enum(ACTIVITY_FILTERS).default('').describe('Activity filter applied on startup.'),
    editor: z.string().default('').describe('Overrides $VISUAL / $EDITOR for opening a working directory.'),
    launch_at_login: z.boolean().default(false).describe('macOS desktop app only.'),
    notifications: z.boolean().default(false).describe('Desktop notification when a session waits too long (--gui).'),
    notify_after_sec: z.int().min(1).default(30).describe('Seconds in waiting before a notification.'),
    agents: agentsSchema.default(Object.fromEntries(AGENT_KINDS.map((a) => [a, true])) as Record<(typeof AGENT_KINDS)[number], boolean>),
    claude_dirs: z.array(z.string()).default([]).describe('Extra claude base directories (each holds projects/).'),
    exclude_cwd_substrings: z.array(z.string()).default([]).describe('Literal, case-sensitive cwd fragments to hide.'),
    // Its length (MIN_PASSPHRASE_LENGTH) is checked by load.ts, which knows whether AGENTWATCH_API_PASSPHRASE overrides it.
    api_passphrase: z.string().default('').describe('Passphrase the API bearer token is derived from.'),
    api_salt: z.string().default('').describe('Public salt of the token derivation; generated once.'),
    tui: z
      .object({ theme: z.enum(['auto', 'dark', 'light']).default('auto') })
      .loose()
      .default({ theme: 'auto' }),
    // Lenient fields: any JSON value is kept; effective.ts applies the documented fallback.
    card_density: z.unknown().default('live').describe('compact | rich | live; anything else reads "live".'),
    terminal: z.unknown().default('terminal').describe('terminal | kitty; anything else uses the platform default.'),
    detail_width: z.unknown().default(400).describe('300..2000 px; anything else reads 400.'),
    // Types here; the meaning of each entry on its own (effective.ts), so one bad webhook never disables the rest.
    webhooks: z.array(storedWebhookEntry).default([]),
  })
  .loose();

/** The config as stored (after back-fill), unknown keys included. */
export type StoredConfig = z.infer<typeof configSchema>;

/** The keys of a fresh file, in the spec's order. */
export const CONFIG_KEYS = Object.keys(configSchema.shape) as (keyof StoredConfig)[];
