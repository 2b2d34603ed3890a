import { z } from 'zod';
import { AGENT_KINDS, type AgentKind } from '../core/agents.js';
import type { Config } from './effective.js';
import { CONFIG_KEYS, configSchema, NESTED_CONFIG_KEYS, webhookEntrySchema, type ConfigShape, type StoredConfig } from './schema.js';
import { nestedSettings, ruleOf } from './rules.js';
import { closestKey } from './unknown-keys.js';
import { keyPath } from './key-path.js';
import { depthProblem } from './depth.js';

/**
 * `PUT /api/config`: a partial config, checked strictly against the rules of the config schema
 * (the fallbacks are for hand-edited files; a client sending `card_density: "huge"` gets a 400
 * naming the field), then merged into the stored document: top-level keys replace, `agents` and
 * `tui` merge key by key, unknown keys already in the file stay. Pure, so it is table-tested.
 */

/** Never writable through the API: the passphrase has its own route, the salt never changes. */
const NOT_WRITABLE = ['api_passphrase', 'api_salt'] as const;

/** Sent back by a client that PUTs what GET /api/config answered: not a setting, accepted and dropped. */
const ANSWER_ONLY = ['bounds'] as const;

type Writable = Exclude<keyof ConfigShape, (typeof NOT_WRITABLE)[number]>;

export type ConfigPatch = Partial<
  Omit<{ -readonly [K in Writable]: ConfigShape[K] }, 'agents' | 'tui' | 'webhooks'> & {
    agents: Partial<ConfigShape['agents']>;
    tui: Partial<ConfigShape['tui']>;
    /** Entries as sent: each is checked with webhookEntrySchema, and merged with the stored one of its name. */
    webhooks: unknown[];
  }
>;

/** A key's rule as a write checks it: an object of settings takes any of its keys, each by its own rule. */
const writeRule = (key: string, setting: z.ZodType): z.ZodType => {
  const rule = ruleOf(setting);
  // Entries are checked one by one below, so each is named by its index.
  if (key === 'webhooks') return z.array(z.unknown(), { error: 'webhooks must be an array of webhook entries' });
  const nested = nestedSettings(rule);
  if (nested === undefined || !(rule instanceof z.ZodObject)) return rule;
  return rule.extend(Object.fromEntries(Object.entries(nested).map(([inner, s]) => [inner, ruleOf(s)]))).partial();
};

const patchSchema = z
  .object(
    Object.fromEntries(
      Object.entries(configSchema.shape as Record<string, z.ZodType>)
        .filter(([key]) => !(NOT_WRITABLE as readonly string[]).includes(key))
        .map(([key, setting]) => [key, writeRule(key, setting)]),
    ),
  )
  .partial();

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Validated patch, or one message naming every bad field (`window_minutes must be at least 1; ...`). */
export const parseConfigPatch = (body: unknown): { patch: ConfigPatch } | { error: string } => {
  if (!isObject(body)) return { error: 'expected a JSON object with the config keys to change, e.g. {"window_minutes": 60}' };
  const problems: string[] = [];
  for (const key of Object.keys(body)) {
    if ((ANSWER_ONLY as readonly string[]).includes(key)) continue;
    if ((NOT_WRITABLE as readonly string[]).includes(key)) {
      problems.push(key === 'api_passphrase' ? 'api_passphrase is not writable here: use PUT /api/passphrase' : `${key} is not writable`);
    } else if (!(CONFIG_KEYS as readonly string[]).includes(key)) {
      const guess = closestKey(key, CONFIG_KEYS);
      problems.push(`unknown key ${JSON.stringify(key)}${guess ? ` (did you mean "${guess}"?)` : ''}`);
    }
  }
  // Keys inside `tui` and `agents` are named with their path and the closest known key, as the
  // config file's own warnings name them, not with zod's "unrecognized key".
  for (const [block, known] of Object.entries(NESTED_CONFIG_KEYS)) {
    const value = body[block];
    if (!isObject(value)) continue;
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      const guess = closestKey(key, known);
      problems.push(`unknown key "${block}.${key}"${guess ? ` (did you mean "${block}.${guess}"?)` : ` (known: ${known.join(', ')})`}`);
    }
  }
  // Before anything walks the body (stringifying a few thousand levels overflows the stack).
  const tooDeep = depthProblem(body);
  if (tooDeep !== undefined) problems.push(tooDeep);
  if (problems.length > 0) return { error: problems.join('; ') };
  const parsed = patchSchema.safeParse(body);
  if (!parsed.success) {
    return {
      error: parsed.error.issues
        .map((issue) => {
          // Messages above name their field already; zod's own (unknown agent keys) get the path.
          const head = String(issue.path[0] ?? '');
          return head !== '' && issue.message.startsWith(head) ? issue.message : `${keyPath(issue.path) || 'body'}: ${issue.message}`;
        })
        .join('; '),
    };
  }
  const patch = parsed.data as ConfigPatch;
  const webhookProblems = (patch.webhooks ?? []).flatMap((entry, index) => {
    const checked = webhookEntrySchema.safeParse(isObject(entry) ? withoutHasSecret(entry) : entry);
    return checked.success ? [] : checked.error.issues.map((issue) => `webhooks[${index}]${issue.path.length > 0 ? `.${keyPath(issue.path)}` : ''}: ${issue.message}`);
  });
  if (webhookProblems.length > 0) return { error: webhookProblems.join('; ') };
  return { patch };
};

const withoutHasSecret = (entry: Record<string, unknown>): Record<string, unknown> => {
  const { has_secret: _dropped, ...rest } = entry;
  return rest;
};

/**
 * Webhook entries sent back by the dashboard carry no secret (GET /api/config never shows one):
 * an entry without `secret` keeps the secret and the unknown keys of the stored entry of the same
 * name; an explicit `secret` (even "") replaces it.
 */
const mergeWebhooks = (stored: readonly unknown[], incoming: readonly unknown[]): unknown[] => {
  const byName = new Map<string, Record<string, unknown>>();
  for (const entry of stored) if (isObject(entry) && typeof entry.name === 'string') byName.set(entry.name.trim(), entry);
  return incoming.map((entry) => {
    if (!isObject(entry)) return entry;
    const clean = withoutHasSecret(entry);
    const previous = typeof clean.name === 'string' ? byName.get(clean.name.trim()) : undefined;
    if (!previous) return clean;
    const merged: Record<string, unknown> = { ...previous, ...clean };
    if (!('secret' in clean) && typeof previous.secret === 'string') merged.secret = previous.secret;
    if (merged.secret === '') delete merged.secret;
    return merged;
  });
};

/** Pure: the stored document with `patch` applied (nested `agents` and `tui` merged key by key). */
export const applyConfigPatch = (stored: StoredConfig, patch: ConfigPatch): StoredConfig => {
  const next: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (key === 'agents' || key === 'tui') next[key] = { ...(isObject(stored[key]) ? stored[key] : {}), ...(value as Record<string, unknown>) };
    else if (key === 'webhooks') next[key] = mergeWebhooks(Array.isArray(stored.webhooks) ? stored.webhooks : [], value as unknown[]);
    else next[key] = value;
  }
  return next as StoredConfig;
};

/** What changed between two effective configs, by top-level key. */
const changedKeys = (before: Config, after: Config): (keyof Config)[] =>
  (Object.keys(after) as (keyof Config)[]).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));

/**
 * Changes a running monitor cannot apply: the claude directories and webhooks are set up at start,
 * the TUI theme is chosen at start, and an agent switched on whose source is not running needs a
 * start to be read (switching one off applies at once: it is hidden).
 */
export const restartRequired = (before: Config, after: Config, running: readonly AgentKind[]): string[] =>
  changedKeys(before, after).flatMap((key): string[] => {
    if (key === 'claude_dirs' || key === 'webhooks') return [key];
    if (key === 'tui') return ['tui.theme'];
    if (key === 'agents') return AGENT_KINDS.filter((agent) => after.agents[agent] && !before.agents[agent] && !running.includes(agent)).map((agent) => `agents.${agent}`);
    // A lifted exclusion shows its sessions at once, but the search index never took their
    // messages (excluded folders are not indexed): they are searchable after a restart.
    if (key === 'exclude_cwd_substrings' && before.exclude_cwd_substrings.some((f) => f !== '' && !after.exclude_cwd_substrings.includes(f))) return ['search'];
    return [];
  });
