import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { CLI_PATH } from './cli.js';

/**
 * Polls `probe` every `everyMs` until it gives a value (not undefined, not false), failing after
 * `ms` with `context()` (a process's stderr) in the message. For waiting on real processes and
 * real HTTP; streams are tested in virtual time instead.
 */
export const until = async <T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  { ms = 20_000, everyMs = 20, context = () => '' }: { ms?: number; everyMs?: number; context?: () => string } = {},
): Promise<T> => {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = await Promise.resolve()
      .then(probe)
      .catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (performance.now() > deadline) throw new Error(`not within ${ms} ms: ${what}\n${context()}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
};

export interface MonitorProcess {
  /** The API's base URL, from its "listening on" line. */
  readonly base: string;
  /** What the process wrote to stderr so far. */
  readonly stderr: () => string;
  /** SIGTERM, and the exit awaited (idempotent). */
  readonly stop: () => Promise<void>;
}

/**
 * The built CLI as a long-running process (`--api ...`), once it listens. Its stop is pushed to
 * `cleanups` so a failing test still ends it.
 */
export const startMonitor = async (
  args: readonly string[],
  env: Record<string, string>,
  cleanups: (() => Promise<void> | void)[],
  options: { readonly cwd?: string } = {},
): Promise<MonitorProcess> => {
  const child = spawn(process.execPath, [CLI_PATH, ...args], { env, ...(options.cwd ? { cwd: options.cwd } : {}), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    child.kill('SIGTERM');
    await exited;
  };
  cleanups.push(stop);
  const base = await until('the API', () => /listening on (http:\/\/\S+)/.exec(stderr)?.[1], { context: () => stderr });
  return { base, stderr: () => stderr, stop };
};
