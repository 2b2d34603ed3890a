import { spawn } from 'node:child_process';
import { CLI_PATH } from './cli.js';

/**
 * The built CLI under a real pseudo-terminal (util-linux `script`): prompts need a terminal.
 */

const shellQuote = (value: string): string => `'${value.replace(/'/g, `'\\''`)}'`;

/**
 * Run the CLI in a pseudo-terminal, answering each prompt (matched on the output so far) in turn.
 * Resolves with everything the terminal showed and the exit code; `stopWhen` ends a server run.
 */
export const runInPty = (
  args: string[],
  env: Record<string, string>,
  answers: readonly { readonly after: RegExp; readonly send: string }[],
  stopWhen?: RegExp,
): Promise<{ output: string; code: number | null }> =>
  new Promise((resolve, reject) => {
    // `exec`: the CLI itself is the terminal's foreground process (no shell in between to catch Ctrl-C).
    const command = `exec ${[process.execPath, CLI_PATH, ...args].map(shellQuote).join(' ')}`;
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { env, cwd: env.HOME, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let answered = 0;
    let stopped = false;
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const onOutput = (chunk: Buffer): void => {
      output += chunk.toString();
      const next = answers[answered];
      // Count prompts seen so far, so the same question asked twice is answered twice.
      if (next && (output.match(new RegExp(next.after.source, 'g'))?.length ?? 0) > answers.slice(0, answered).filter((a) => a.after.source === next.after.source).length) {
        answered += 1;
        child.stdin.write(next.send);
      }
      if (stopWhen && !stopped && stopWhen.test(output)) {
        stopped = true;
        child.stdin.write('\u0003'); // Ctrl-C through the terminal: SIGINT to the foreground process
      }
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ output, code });
    });
  });
