import { z } from 'zod';
import { ACTIVITIES, ACTIVITY_FILTERS } from '../core/activity.js';
import { AGENT_KINDS, type AgentKind } from '../core/agents.js';
import { SESSION_ORDERS } from '../core/session-order.js';
import { standardSecretProblem } from './standard-secret.js';
import { closest } from '../util/closest.js';

/**
 * The one declaration of `config.json`. Every key is a rule (its type, its bounds and the messages
 * `PUT /api/config` refuses a value with), the value it reads as when it is missing (`.default`) or
 * invalid (`.catch`), and what it is for (`.describe`). Loading, `PUT /api/config`, the CLI's flag
 * ranges, the steppers of the TUI and the dashboard, and the key table of docs/configuration.md all
 * read it: a key, a bound or a default is written here and nowhere else.
 */

export const MIN_PASSPHRASE_LENGTH = 12;

/** A passphrase's length as a person counts it: code points, surrounding whitespace left out (an emoji is one, not two). */
export const passphraseLength = (passphrase: string): number => [...passphrase.trim()].length;

/** What a key's metadata may say besides its description. */
export interface SettingMeta {
  readonly description: string;
  /** Never quoted in a message: a warning names the key and says it is not shown. */
  readonly secret?: boolean;
  /** How the TUI's and the dashboard's +/- keys step it: within `min..max` (narrower than the file may hold) by `step`. */
  readonly stepper?: { readonly min: number; readonly max: number; readonly step: number };
}

/**
 * A key: `rule` checks a value as written (PUT /api/config answers with its messages); a missing
 * value reads as `fallback`, and so does an invalid one in the file (load.ts says which and why).
 */
const setting = <T extends z.ZodType>(rule: T, fallback: () => z.util.NoUndefined<z.output<T>>, meta: SettingMeta) =>
  rule.default(fallback).catch(fallback).meta({ ...meta });

/**
 * The message of a value that is not one of `allowed` in a list field: every allowed one, the value
 * given, and the allowed value it is probably a typo of (`...: "wating" is not one (did you mean "waiting"?)`).
 */
const notOneOf = (field: string, what: string, allowed: readonly string[]) => (issue: { readonly input?: unknown }): string => {
  const guess = typeof issue.input === 'string' ? closest(issue.input, allowed) : undefined;
  const given = typeof issue.input === 'string' ? `: ${JSON.stringify(issue.input)} is not one${guess ? ` (did you mean "${guess}"?)` : ''}` : '';
  return `${field} must list ${what} (${allowed.join(', ')})${given}`;
};

/** Webhook `events` values: a target activity, or "active" as in `default_filter`. */
const WEBHOOK_EVENTS = ['active', ...ACTIVITIES] as const;

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

const CARD_DENSITIES = ['compact', 'rich', 'live'] as const;
export type CardDensity = (typeof CARD_DENSITIES)[number];
const TERMINALS = ['terminal', 'kitty'] as const;
export type TerminalChoice = (typeof TERMINALS)[number];
const THEMES = ['auto', 'dark', 'light'] as const;

const oneOf = (values: readonly string[]): string => values.map((value) => JSON.stringify(value)).join(', ');

/** One agent's switch: on unless the file says `false`. */
const agentSwitch = (agent: AgentKind) => setting(z.boolean({ error: `agents.${agent} must be true or false` }), () => true, { description: `Reads ${agent} sessions.` });

/** Built from the list of agent kinds: a kind added there is a switch here, on by default. */
const agentSwitches = z.object(Object.fromEntries(AGENT_KINDS.map((agent) => [agent, agentSwitch(agent)])) as Record<AgentKind, ReturnType<typeof agentSwitch>>, {
  error: 'agents must be an object of agent: true|false',
});

const tuiSettings = z.object(
  {
    theme: setting(z.enum(THEMES, { error: `tui.theme must be "auto", "dark" or "light"` }), () => 'auto' as const, {
      description: '`auto`, `dark` or `light`. An existing value is never migrated.',
    }),
  },
  { error: 'tui must be an object { "theme": ... }' },
);

/** Webhook entries as the file holds them: each checked on its own (effective.ts reports the invalid ones), so one bad entry never disables the rest. */
const webhookList = z
  .array(webhookEntrySchema.nullable().catch(null), { error: 'webhooks must be an array of webhook entries' })
  .transform((entries) => entries.filter((entry): entry is WebhookEntry => entry !== null));

/** A price the user gives for one model, USD per million tokens (streams/cost.ts `UserPrice`). */
const usdPerMillion = (field: string) => z.number({ error: `${field} must be a number of US dollars per million tokens` }).nonnegative(`${field} must not be negative`).finite();

export const modelPriceSchema = z
  .object(
    {
      input: usdPerMillion('input'),
      output: usdPerMillion('output'),
      cache_write: usdPerMillion('cache_write').optional(),
      cache_read: usdPerMillion('cache_read').optional(),
    },
    { error: 'a price must be an object { "input": ..., "output": ... } in USD per million tokens' },
  )
  .strict();

/** Price entries as the file holds them: each checked on its own, so one bad entry never drops the rest. */
const priceMap = z
  .record(z.string().trim().min(1, 'a model name must not be empty'), modelPriceSchema.nullable().catch(null), { error: 'prices must be an object of model name: price' })
  .transform((entries) => Object.fromEntries(Object.entries(entries).filter((entry): entry is [string, z.output<typeof modelPriceSchema>] => entry[1] !== null)));

export const configSchema = z.object({
  window_minutes: setting(
    z.int({ error: 'window_minutes must be a whole number of minutes' }).min(1, 'window_minutes must be at least 1').max(10_080, 'window_minutes must be at most 10080 (one week)'),
    () => 30,
    { description: 'Sessions idle for longer are hidden (not deleted).', stepper: { min: 10, max: 480, step: 10 } },
  ),
  default_filter: setting(z.enum(ACTIVITY_FILTERS, { error: `default_filter must be one of ${oneOf(ACTIVITY_FILTERS)}` }), () => '' as const, {
    description: 'Activity filter on startup: `""` (all), `active` (neither idle nor waiting), or an activity state.',
  }),
  sort_order: setting(z.enum(SESSION_ORDERS, { error: `sort_order must be one of ${oneOf(SESSION_ORDERS)}` }), () => 'needs-you' as const, {
    description:
      "How the TUI, the dashboard's cards and its panel order sessions: `needs-you` (waiting for you, then working, then idle; newest started first in each), `recent` (last activity), `started`, `name`, `cost` or `project`. See [dashboard.md](dashboard.md#order).",
  }),
  editor: setting(z.string({ error: 'editor must be a string' }).max(1_000, 'editor must be at most 1000 characters'), () => '', {
    description: "Opens a session's directory; overrides `$VISUAL` / `$EDITOR`.",
  }),
  launch_at_login: setting(z.boolean({ error: 'launch_at_login must be true or false' }), () => false, {
    description:
      "Start `agentwatch --gui --no-open` at login: a LaunchAgent on macOS, an XDG autostart entry on Linux, created or removed when the setting changes in the dashboard's Settings ([dashboard.md](dashboard.md#launch_at_login)).",
  }),
  notifications: setting(z.boolean({ error: 'notifications must be true or false' }), () => false, {
    description: 'Desktop notification when a session waits too long, in every long-running mode (`--tui`, `--api`, `--gui`); never with `--demo`. See [notifications.md](notifications.md).',
  }),
  notify_after_sec: setting(
    z.int({ error: 'notify_after_sec must be a whole number of seconds' }).min(1, 'notify_after_sec must be at least 1').max(86_400, 'notify_after_sec must be at most 86400'),
    () => 30,
    { description: 'Seconds a session has waited for its user, counted from the agent\'s answer, before that notification (one per wait).' },
  ),
  waiting_timeout_minutes: setting(
    z
      .int({ error: 'waiting_timeout_minutes must be a whole number of minutes' })
      .min(0, 'waiting_timeout_minutes must be at least 0')
      .max(10_080, 'waiting_timeout_minutes must be at most 10080 (one week)'),
    () => 2,
    { description: 'Minutes after the answer a session shows `waiting`, then `idle`; `0` keeps it `waiting` until its user acts or it leaves the window. Notifications do not depend on it.' },
  ),
  agents: setting(agentSwitches, () => Object.fromEntries(AGENT_KINDS.map((agent) => [agent, true])) as Record<AgentKind, boolean>, {
    description: `Per agent kind, \`true\` or \`false\`: ${AGENT_KINDS.map((agent) => `\`${agent}\``).join(' ')}. A disabled agent is skipped even under \`--agent all\`.`,
  }),
  claude_dirs: setting(
    z.array(z.string({ error: 'claude_dirs must list directory paths' }), { error: 'claude_dirs must be an array of paths' }),
    () => [],
    { description: 'Claude base directories (each holds `projects/`); empty means `$CLAUDE_CONFIG_DIR` or `~/.claude`.' },
  ),
  exclude_cwd_substrings: setting(
    z.array(z.string({ error: 'exclude_cwd_substrings must list strings' }), { error: 'exclude_cwd_substrings must be an array of strings' }),
    () => [],
    { description: 'Literal, case-sensitive fragments of a working directory to hide everywhere.' },
  ),
  // Its length (MIN_PASSPHRASE_LENGTH) is checked by load.ts, which knows whether AGENTWATCH_API_PASSPHRASE overrides it.
  api_passphrase: setting(z.string({ error: 'api_passphrase must be a string' }), () => '', {
    description:
      'The API token is derived from it; at least 12 characters (surrounding whitespace left out; an emoji counts as one). `AGENTWATCH_API_PASSPHRASE` overrides it and is never written. A shorter one stops every command that reads the config (exit 1, see below), unless a valid `AGENTWATCH_API_PASSPHRASE` overrides it (then it is never used, and a warning says so); `agentwatch passphrase` replaces it.',
    secret: true,
  }),
  api_salt: setting(z.string({ error: 'api_salt must be a string' }), () => '', {
    description:
      'Public salt of the token derivation, generated once per install. Changing it invalidates tokens. An empty or invalid one is replaced by a generated salt and saved, and stderr says so (tokens made with another salt stop working).',
  }),
  tui: setting(tuiSettings, () => ({ theme: 'auto' as const }), { description: 'Terminal UI settings (`tui.theme` below).' }),
  card_density: setting(z.enum(CARD_DENSITIES, { error: `card_density must be one of ${CARD_DENSITIES.join(', ')}` }), () => 'live' as const, {
    description: "Dashboard cards: `compact`, `rich`, `live` (set in the dashboard's header).",
  }),
  terminal: setting(z.enum(TERMINALS, { error: `terminal must be one of ${TERMINALS.join(', ')}` }), () => 'terminal' as const, {
    description:
      "Where the dashboard's Resume opens: `terminal` (the platform's: `xdg-terminal-exec`, then `x-terminal-emulator`, then common emulators on Linux; Terminal.app on macOS) or `kitty`.",
  }),
  detail_width: setting(
    z.int({ error: 'detail_width must be a whole number of pixels' }).min(300, 'detail_width must be at least 300').max(2_000, 'detail_width must be at most 2000'),
    () => 400,
    { description: 'Dashboard detail panel width in pixels, dragged and kept.' },
  ),
  webhooks: setting(webhookList, () => [], { description: 'Outbound webhooks (see below).' }),
  prices: setting(priceMap, () => ({}), {
    description:
      'Model prices that replace or add to the shipped price table, in USD per million tokens: `{ "<model>": { "input": 0.5, "output": 2, "cache_write": 0.6, "cache_read": 0.05 } }` (cache rates default to `input`). Costs an agent does not record are estimated from them.',
  }),
});

/** The config as every component reads it: each key valid (or its fallback), nothing else. */
export type ConfigShape = z.output<typeof configSchema>;

/** The config document as the file holds it, missing keys back-filled: any JSON value under any key, the user's own keys included. */
export type StoredConfig = Readonly<Record<string, unknown>>;

/** The keys of a fresh file, in the order docs/configuration.md lists them. */
export const CONFIG_KEYS = Object.keys(configSchema.shape) as (keyof ConfigShape)[];

/** The keys of the object-valued settings (`agents`, `tui`), by setting. */
export const NESTED_CONFIG_KEYS: Readonly<Record<'agents' | 'tui', readonly string[]>> = {
  agents: Object.keys(agentSwitches.shape),
  tui: Object.keys(tuiSettings.shape),
};
