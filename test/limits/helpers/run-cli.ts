import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../../dist/cli.js', import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  /** `performance.now()` in this process when the child exited (compare with server arrivals). */
  readonly endedAt: number;
}

/** Spawns `node dist/cli.js <args>` with exactly `env` (nothing inherited) and collects its output. */
export const runCli = (args: readonly string[], env: Readonly<Record<string, string>>): Promise<CliResult> => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before these tests`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const endedAt = performance.now();
      resolve({ code, stdout, stderr, ms: endedAt - started, endedAt });
    });
  });
};
