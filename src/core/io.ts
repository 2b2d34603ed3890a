import type { Env } from './env.js';

/** What a command may touch of the process: injected so commands run in tests without spawning. */
export interface CliIo {
  readonly argv: readonly string[];
  readonly env: Env;
  readonly cwd: string;
  readonly stdout: NodeJS.WritableStream & { readonly isTTY?: boolean; readonly columns?: number };
  readonly stderr: NodeJS.WritableStream & { readonly isTTY?: boolean };
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly platform: NodeJS.Platform;
  readonly version: string;
}

/** A command's entry point: resolves to the exit code. Throw `UsageError` for exit 2. */
export type CommandRun = (io: CliIo) => Promise<number>;

/** Bad flags or arguments: one line on stderr, exit 2, never a stack trace. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly hint = 'Run agentwatch --help',
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A failure the user can act on: its message on stderr, exit 1, never a stack trace. */
export class RuntimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RuntimeError';
  }
}
