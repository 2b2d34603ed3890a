import type { CommandRun } from './io.js';

/**
 * Every command and mode the CLI offers. This file must stay import-free (only lazy `import()`),
 * because `--help` reads it and has to answer in about the time of `node -e 0`.
 * A command appears here only once it works; nothing is listed as "coming soon".
 */
export interface CommandEntry {
  /** One line for the overview. */
  readonly summary: string;
  /** Full `agentwatch <name> --help` text. */
  readonly usage: string;
  readonly load: () => Promise<{ readonly run: CommandRun }>;
}

export const COMMANDS: Readonly<Record<string, CommandEntry>> = {};

/**
 * The monitor modes (`agentwatch [--tui] [--api] [--gui] ...`), offered once the monitor exists.
 * `undefined` while no interface is built: bare `agentwatch` then prints the overview.
 */
export const MONITOR: { readonly usage: string; readonly load: CommandEntry['load'] } | undefined = undefined;
