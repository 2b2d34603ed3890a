import { AGENT_KINDS } from '../core/agents.js';
import type { CommandName } from '../commands/names.js';
import type { CommandRun } from '../core/io.js';

/** How the help texts list the agents a flag accepts. */
const AGENTS = AGENT_KINDS.join(' ');

/**
import { AGENT_KINDS } from '../core/agents.js';
import type { CommandName } from '../commands/names.js';
import type { CommandRun } from '../core/io.js';
 * A command appears here only once it works; nothing is listed as "coming soon".
 */
export interface CommandEntry {
  /** One line for the overview. */
  readonly summary: string;
  /** Full `agentwatch <name> --help` text. */
  readonly usage: string;
  readonly load: () => Promise<{ readonly run: CommandRun }>;
}

export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  limits: {
    summary: 'Rate-limit and billing windows of claude, codex, grok, kimi and cursor (on demand)',
    usage: [
      'Usage: agentwatch limits [--agent claude|codex|grok|kimi|cursor|all] [--detailed] [--json] [--demo]',
      '',
      'Queries each agent\'s usage endpoint once (concurrently) with the login the agent already has,',
      'and prints a summary table of its 5-hour and weekly (or monthly) windows.',
      '',
      'Options',
      '  --agent NAME   claude, codex, grok, kimi, cursor or all (default all; agents without a login are skipped)',
      '  --detailed     one block per window: Used, Elapsed, Resets, Pace, Source and Note',
      '  --json         the same windows as a JSON document for scripts and status bars',
      '  --demo         generated sample windows of all five agents, marked as sample (no login, no request)',
      '',
      'Exit codes: 0 every requested agent answered, 1 at least one failed (details on stderr), 2 bad flags.',
      'The endpoints are undocumented and may change; run it on demand, never in a polling loop.',
    ].join('\n'),
    load: () => import('../commands/limits.js'),
  },
  webhooks: {
    summary: 'Test your webhooks, list recent deliveries, or send one again',
    usage: [
      'Usage: agentwatch webhooks test [NAME] [--timeout SECONDS]',
      '       agentwatch webhooks log [NAME] [--limit N] [--json]',
      '       agentwatch webhooks replay ID [--timeout SECONDS]',
      '',
      'log: the most recent deliveries (default 20), newest first, with state (queued, delivered,',
      'refused, failed, dropped), HTTP status, attempts, latency and id. replay: sends the delivery',
      'ID (or an unambiguous prefix of 8+ characters) again, now, with the same id and body.',
      '',
      'test: sends one sample state_transition delivery (signed when the entry has a secret) to every',
      'enabled webhook in the config, or only to the one named NAME (even when it is disabled),',
      'and prints each receiver\'s HTTP status. No retries: the answer is shown at once.',
      'The config file is only read, never created or changed.',
      '',
      'Options',
      '  --timeout SECONDS   test, replay: how long to wait for each receiver (1 to 600, default 10)',
      '  --limit N           log: how many deliveries to list (1 to 10000, default 20)',
      '  --json              log: a JSON array instead of lines',
      '',
      'Exit codes: 0 every delivery got a 2xx answer, 1 a delivery failed, NAME is unknown or',
      'the config holds invalid webhook entries, 2 bad arguments. Delivery semantics: docs/webhooks.md.',
    ].join('\n'),
    load: () => import('../commands/webhooks.js'),
  },
  sessions: {
    summary: 'One-shot list of the sessions under this directory (or --all), newest first',
    usage: [
      'Usage: agentwatch sessions [--all | --dir DIR] [--agent NAME] [--window MINUTES] [--json] [--demo]',
      '',
      'Reads every enabled agent\'s sessions once (no watching), prints them newest first and exits.',
      'Default scope: sessions whose working directory is the current directory or below it.',
      'Sessions of every age are listed unless --window is given. Exclusions (exclude_cwd_substrings),',
      'disabled agents and sub-agent sessions are left out, as everywhere.',
      '',
      'Options',
      '  --all              sessions of every directory',
      '  --dir DIR          sessions in DIR or below it (instead of the current directory; also through a symlink)',
      `  --agent NAME       one agent (${AGENTS}) or all (default)`,
      // The range of window_minutes (config schema); written out so --help loads no schema (a test checks it).
      '  --window MINUTES   only sessions active in the last MINUTES minutes (1 to 10080)',
      '  --json             a JSON array of session-detail objects (the API\'s GET /api/sessions/:id shape)',
      '  --demo             generated sessions of every agent instead of the real ones (every directory unless --dir)',
      '',
      'Exit codes: 0 success (also when nothing is found), 1 runtime failure (bad config), 2 bad flags.',
    ].join('\n'),
    load: () => import('../commands/sessions.js'),
  },
  search: {
    summary: 'Full-text search over every agent\'s messages: which session was it?',
    usage: [
      'Usage: agentwatch search QUERY [--agent LIST] [--limit N] [--json] [--reindex]',
      '       echo QUERY | agentwatch search -',
      '',
      'Searches what you and the agents wrote (not tool output, not thinking) in every enabled agent\'s',
      'sessions, and lists the sessions ranked by relevance with their best snippets and the command',
      'that resumes them. The index (SQLite FTS5 in the cache directory) is brought up to date first:',
      'only what was written since the last search is read.',
      '',
      'Queries: words (all must match), "a phrase", prefix*, OR, NOT, AND, parentheses.',
      '',
      'Options',
      `  --agent LIST   only these agents, comma-separated (${AGENTS})`,
      '  --limit N      at most N sessions (1 to 10000, default 10)',
      '  --json         a JSON array, best first: { session_id, agent, cwd, title, last_activity, resume_command, score, snippets[] }',
      '  --reindex      rebuild the index from nothing',
      '',
      'Exit codes: 0 success (also with no hits), 1 runtime failure, 2 a malformed query or bad flags.',
    ].join('\n'),
    load: () => import('../commands/search.js'),
  },
  doctor: {
    summary: 'Where each agent was looked for, what was found, and every problem with file and line',
    usage: [
      'Usage: agentwatch doctor [--json]',
      '',
      'Reads every enabled agent\'s sessions once from the start (no cache, nothing written) and reports,',
      'per agent: the places looked in (ok, not found, unreadable, wrong type), the files, sessions and agent',
      'versions found, and every diagnostic with its file and line (junk or cut lines, record types of',
      'another agent version, unreadable directories, locked, corrupt or unknown databases), each one',
      'listed. Then the config (invalid values, unknown keys with the closest known one), the API',
      'passphrase and the webhooks.',
      '',
      'Options',
      '  --json   the report as one JSON document',
      '',
      'Exit codes: 0 healthy, 1 something needs your attention (listed at the end), 2 bad flags.',
    ].join('\n'),
    load: () => import('../commands/doctor.js'),
  },
  passphrase: {
    summary: 'Set or rotate the API passphrase (asked twice, hidden); --show prints the current API token',
    usage: [
      'Usage: agentwatch passphrase [--show]',
      '',
      'Without options: asks for a new API passphrase twice (hidden input, at least 12 characters),',
      'saves it to the config file and prints the new token once on stderr. Restart a running',
      'agentwatch --api for the new token to take effect.',
      '',
      'Options',
      '  --show   print the token of the current passphrase on stdout (one line), for scripts',
      '',
      'AGENTWATCH_API_PASSPHRASE, when set, overrides the saved passphrase and is never written.',
    ].join('\n'),
    load: () => import('../commands/passphrase.js'),
  },
} satisfies Record<CommandName, CommandEntry>;

/**
 * The monitor modes (`agentwatch [--tui] [--api] [--gui] ...`), offered once the monitor exists.
 * `undefined` while no interface is built: bare `agentwatch` then prints the overview.
 */
export const MONITOR: { readonly usage: string; readonly load: CommandEntry['load'] } | undefined = {
  usage: [
    '  agentwatch [--tui] [--api] [--gui [--no-open]] [--host ADDR] [--agent NAME|all] [--demo]',
    '',
    '      --tui          the terminal UI (the default without a mode flag); with --api or --gui both run',
    '      --api          headless: watch the agents and serve the HTTP API (+ webhooks, notifier)',
    '      --gui          the web dashboard: the API server also serves it at /, opened in an app window',
    '      --no-open      with --gui: do not open a browser (the dashboard URL is printed on stderr)',
    '      --host ADDR    with --api or --gui: listen address (default 127.0.0.1:7421; without it a busy port falls back to 7422-7431)',
    `      --agent NAME   one agent (${AGENTS}) or all (default)`,
    '      --demo         generated sessions of every agent instead of the real ones',
    '',
  ].join('\n'),
  load: () => import('../commands/monitor.js'),
};
