import { WINDOW_BOUNDS } from '../config/bounds.js';
import { AGENT_KINDS, LIMIT_AGENTS } from '../core/agents.js';
import { LIMIT_RANGE, TIMEOUT_RANGE } from '../core/ranges.js';
import { parseFlags, type FlagSpec, type FlagSpecs } from './flags.js';

/**
 * The flags of every command, as data. Each command parses its arguments with its own; `--help`
 * and `--version`, answered without loading the command, check the flags given beside them with
 * the same specs, so `agentwatch --bogus --version` is the usage error `agentwatch --bogus` is.
 * The ranges (core/ranges.ts) are the ones the usage texts (registry.ts) and docs name.
 */

/** `--window`, in minutes: the range of `window_minutes` (config schema). */
const WINDOW_RANGE = { min: WINDOW_BOUNDS.min, max: WINDOW_BOUNDS.max } as const;

export const MONITOR_FLAGS = {
  tui: { type: 'boolean' },
  api: { type: 'boolean' },
  gui: { type: 'boolean' },
  // `--no-open` (with --gui): serve the dashboard without opening a browser.
  open: { type: 'boolean', default: true, requires: ['gui'] },
  // The address the server of --api or --gui listens on: the terminal UI alone serves nothing.
  host: { type: 'string', requires: ['api', 'gui'] },
  agent: { type: 'string', choices: ['all', ...AGENT_KINDS] },
  demo: { type: 'boolean' },
} as const satisfies FlagSpecs;

export const LIMITS_FLAGS = {
  agent: { type: 'string', choices: [...LIMIT_AGENTS, 'all'] },
  detailed: { type: 'boolean' },
  json: { type: 'boolean' },
  demo: { type: 'boolean' },
} as const satisfies FlagSpecs;

export const SESSIONS_FLAGS = {
  all: { type: 'boolean' },
  dir: { type: 'string' },
  agent: { type: 'string', choices: ['all', ...AGENT_KINDS] },
  window: { type: 'number', integer: true, ...WINDOW_RANGE },
  json: { type: 'boolean' },
  demo: { type: 'boolean' },
} as const satisfies FlagSpecs;

export const SEARCH_FLAGS = {
  agent: { type: 'string' },
  limit: { type: 'number', integer: true, ...LIMIT_RANGE },
  json: { type: 'boolean' },
  reindex: { type: 'boolean' },
} as const satisfies FlagSpecs;

export const DOCTOR_FLAGS = { json: { type: 'boolean' } } as const satisfies FlagSpecs;

export const PASSPHRASE_FLAGS = { show: { type: 'boolean' } } as const satisfies FlagSpecs;

/** Each `webhooks` subcommand takes its own flags, and only those. */
export const WEBHOOKS_FLAGS = {
  test: { timeout: { type: 'number', ...TIMEOUT_RANGE } },
  log: { limit: { type: 'number', integer: true, ...LIMIT_RANGE }, json: { type: 'boolean' } },
  replay: { timeout: { type: 'number', ...TIMEOUT_RANGE } },
} as const satisfies Record<string, FlagSpecs>;

export type WebhooksSubcommand = keyof typeof WEBHOOKS_FLAGS;

export const isWebhooksSubcommand = (word: string | undefined): word is WebhooksSubcommand => word !== undefined && Object.hasOwn(WEBHOOKS_FLAGS, word);

/** Every flag of any subcommand, values taken as text: enough to find the subcommand among the arguments. */
const ANY_WEBHOOKS_FLAG: FlagSpecs = Object.fromEntries(
  Object.values(WEBHOOKS_FLAGS).flatMap((specs) =>
    Object.entries(specs).map(([name, spec]): [string, FlagSpec] => [name, spec.type === 'boolean' ? spec : { type: 'string' }]),
  ),
);

const WEBHOOKS_VALUE_FLAGS: ReadonlySet<string> = new Set(Object.entries(ANY_WEBHOOKS_FLAG).filter(([, spec]) => spec.type !== 'boolean').map(([name]) => `--${name}`));

/** Where the subcommand stands: the first word that is neither a flag nor the value of one. */
const webhooksSubcommandOf = (argv: readonly string[]): string | undefined => {
  for (let index = 0; index < argv.length; index += 1) {
    const token = argv[index] ?? '';
    if (token === '--') return argv[index + 1];
    if (!token.startsWith('-') || token === '-') return token;
    if (WEBHOOKS_VALUE_FLAGS.has(token)) index += 1;
  }
  return undefined;
};

/**
 * The positional arguments of `agentwatch webhooks ...` (subcommand first). A flag the subcommand
 * does not take is a UsageError naming the subcommand, with the nearest of its own flags
 * (`webhooks test --jsno` suggests nothing: only `log` takes --json); without a known subcommand,
 * a flag no subcommand takes.
 */
export const webhooksInput = (argv: readonly string[]): string[] => {
  const subcommand = webhooksSubcommandOf(argv);
  return isWebhooksSubcommand(subcommand)
    ? parseFlags(argv, WEBHOOKS_FLAGS[subcommand], `agentwatch webhooks ${subcommand}`).input
    : parseFlags(argv, ANY_WEBHOOKS_FLAG, 'agentwatch webhooks').input;
};

const COMMAND_FLAGS: Readonly<Record<string, FlagSpecs>> = {
  limits: LIMITS_FLAGS,
  sessions: SESSIONS_FLAGS,
  search: SEARCH_FLAGS,
  doctor: DOCTOR_FLAGS,
  passphrase: PASSPHRASE_FLAGS,
};

/** Parses `argv` as `command` would (undefined: the monitor), for its UsageError only. */
export const checkFlags = (command: string | undefined, argv: readonly string[]): void => {
  if (command === 'webhooks') {
    webhooksInput(argv);
    return;
  }
  const specs = command === undefined ? MONITOR_FLAGS : COMMAND_FLAGS[command];
  // Flags the command takes, even in a combination it refuses (`--host` without a mode): --help still answers.
  if (specs) parseFlags(argv, specs, command === undefined ? 'agentwatch' : `agentwatch ${command}`, { combinations: false });
};
