#!/usr/bin/env node
/**
 * argv -> command. The only module that reads process.argv, writes the final exit code and
 * turns thrown errors into one-line messages. Heavy modules load lazily so `--help` and
 * `--version` stay near the cost of starting node.
 */
import { overview } from './cli/help.js';
import type { CliIo } from './core/io.js';
import { COMMANDS, MONITOR } from './cli/registry.js';
import { closest } from './util/closest.js';
import { packageField } from './util/package-json.js';
import { terminalSafe } from './core/terminal-safe.js';

const readVersion = (): string => packageField('version') ?? '0.0.0';

const isHelp = (token: string | undefined): boolean => token === '--help' || token === '-h';
const isVersion = (token: string | undefined): boolean => token === '--version' || token === '-v';

const fail = (message: string, hint?: string): void => {
  process.stderr.write(terminalSafe(`agentwatch: ${message}\n${hint ? `${hint}\n` : ''}`));
};

const main = async (argv: readonly string[]): Promise<number> => {
  const version = readVersion();
  const first = argv[0];
  const command = first !== undefined && !first.startsWith('-') ? first : undefined;
  const entry = command === undefined ? undefined : COMMANDS[command];

  if (command !== undefined && !entry) {
    const guess = closest(command, Object.keys(COMMANDS));
    fail(`unknown command "${command}"${guess ? ` (did you mean "agentwatch ${guess}"?)` : ''}`, 'Run agentwatch --help');
    return 2;
  }
  const rest = command === undefined ? argv : argv.slice(1);
  const end = rest.indexOf('--');
  const flagsPart = end === -1 ? rest : rest.slice(0, end);
  const help = flagsPart.some(isHelp);
  const showVersion = command === undefined && flagsPart.some(isVersion);
  if (help || showVersion) {
    // Answered without loading the command, but a flag beside them that the command does not take is still a usage error.
    const others = flagsPart.filter((token) => !isHelp(token) && !(showVersion && isVersion(token)));
    if (others.some((token) => token.startsWith('-'))) (await import('./commands/command-flags.js')).checkFlags(command, others);
    process.stdout.write(help ? (entry ? `${entry.usage}\n` : overview(version)) : `${version}\n`);
    return 0;
  }
  if (!entry && !MONITOR) {
    if (argv.length === 0) {
      process.stdout.write(overview(version));
      return 0;
    }
    fail(`unknown flag ${argv[0] ?? ''}`, 'Run agentwatch --help');
    return 2;
  }

  const io: CliIo = {
    argv: rest,
    env: process.env,
    cwd: process.cwd(),
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    platform: process.platform,
    version,
  };
  const target = entry ?? MONITOR;
  if (!target) return 2;
  // A usage error is answered before the command's modules load: the same specs, a fraction of the start-up.
  (await import('./commands/command-flags.js')).checkFlags(command, rest);
  // The monitor runs all day: its heap settings are set before its modules load.
  if (target === MONITOR) (await import('./util/long-run-heap.js')).keepYoungGenerationSmall();
  const { run } = await target.load();
  const code = await run(io);
  if (target === MONITOR) await exitOnceWritten(code);
  return code;
};

/**
 * Ends the process once stdout and stderr have taken what was written. For the monitor, which has
 * stopped everything it started by the time `run` returns: a stop during the first discovery cuts
 * chokidar's initial scans short, and their file-system requests still in flight kept the process
 * alive for a noticeable while after the last line of its shutdown.
 */
const exitOnceWritten = async (code: number): Promise<void> => {
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write('', () => resolve()))));
  process.exit(code);
};

const report = async (error: unknown): Promise<number> => {
  const { UsageError, RuntimeError } = await import('./core/io.js');
  const { ConfigError } = await import('./config/errors.js');
  if (error instanceof UsageError) {
    fail(error.message, error.hint);
    return 2;
  }
  if (error instanceof RuntimeError || error instanceof ConfigError) {
    fail(error.message);
    return 1;
  }
  const message = error instanceof Error ? error.message : String(error);
  fail(`unexpected error: ${message}`);
  if (process.env.AGENTWATCH_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return 1;
};

// A reader that stops early (`agentwatch sessions --json | head`) is done, not an error: end
// quietly, as a tool killed by SIGPIPE would, instead of a stack trace for an unhandled EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  fail(`cannot write the output: ${error.message}`);
  process.exit(1);
});

main(process.argv.slice(2))
  .catch(report)
  .then((code) => {
    process.exitCode = code;
  });
