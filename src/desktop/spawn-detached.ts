import { spawn } from 'node:child_process';
import type { Env } from '../config/paths.js';

/** One program to start: absolute path (or name) and arguments, never through a shell. */
export interface Step {
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * Start `step` on its own (detached, no stdio, not waited for: a terminal or browser outlives us)
 * and resolve once it has started; reject with a message when it cannot be started.
 */
export const spawnDetached = (step: Step, options: { readonly cwd?: string; readonly env: Env }): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(step.command, [...step.args], {
      detached: true,
      stdio: 'ignore',
      env: { ...options.env },
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    child.once('error', (error: NodeJS.ErrnoException) => reject(new Error(error.code === 'ENOENT' ? `${step.command} not found` : `cannot start ${step.command}: ${error.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
