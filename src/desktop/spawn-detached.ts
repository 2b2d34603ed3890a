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

/**
 * `spawnDetached`, then watch the program until `settled` resolves (the caller's timer: the first
 * seconds of a window): a program that ends with an error or a signal before then did not open
 * what it was asked to (a browser refusing to run as root, no display it can use), and the
 * promise rejects saying so. One that ends cleanly handed the work to a running instance.
 */
export const spawnSurviving = (step: Step, options: { readonly env: Env; readonly settled: () => Promise<void> }): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(step.command, [...step.args], { detached: true, stdio: 'ignore', env: { ...options.env } });
    let done = false;
    const finish = (error?: Error): void => {
      if (done) return;
      done = true;
      child.unref();
      if (error) reject(error);
      else resolve();
    };
    child.once('error', (error: NodeJS.ErrnoException) => finish(new Error(error.code === 'ENOENT' ? `${step.command} not found` : `cannot start ${step.command}: ${error.message}`)));
    child.once('exit', (code, signal) => {
      if (code === 0) finish();
      else finish(new Error(`${step.command} ended at once (${signal ? `signal ${signal}` : `exit code ${String(code)}`})`));
    });
    child.once('spawn', () => {
      void options.settled().then(() => finish());
    });
  });
