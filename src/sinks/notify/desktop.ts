import { execFile } from 'node:child_process';
import type { Env } from '../../config/paths.js';
import type { DesktopNotification } from './message.js';

/** Shows one notification; resolves once the platform tool has accepted it. */
export type Notify = (notification: DesktopNotification) => Promise<void>;

/** No way to notify on this machine (tool missing, platform unsupported): reported once, then quiet. */
export class NotifierUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotifierUnavailableError';
  }
}

/** Runs a program without a shell (arguments are never interpreted), rejecting on failure. */
export type RunProgram = (file: string, args: readonly string[], env: Env) => Promise<void>;

const runProgram: RunProgram = (file, args, env) =>
  new Promise((resolve, reject) => {
    execFile(file, [...args], { env: { ...env }, timeout: 10_000, windowsHide: true }, (error, _stdout, stderr) => {
      if (!error) return resolve();
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return reject(error);
      const detail = String(stderr).trim().split('\n')[0];
      reject(new Error(`${file} failed${detail ? `: ${detail}` : ` (${error.message})`}`));
    });
  });

const HINTS: Readonly<Record<string, string>> = {
  'notify-send': 'install libnotify (e.g. apt install libnotify-bin) to get desktop notifications',
  osascript: 'it ships with macOS; check PATH',
};

const viaProgram =
  (file: string, toArgs: (n: DesktopNotification) => readonly string[], env: Env, run: RunProgram): Notify =>
  async (notification) => {
    try {
      await run(file, toArgs(notification), env);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new NotifierUnavailableError(`desktop notifications are off: ${file} was not found on PATH (${HINTS[file] ?? 'install it'})`);
      }
      throw error;
    }
  };

/**
 * The platform's notifier: `notify-send` on Linux and the BSDs, `osascript` on macOS. Title and
 * body travel as arguments (AppleScript reads them from `argv`), so no text is ever parsed as code.
 */
export const desktopNotify = (platform: NodeJS.Platform, env: Env, run: RunProgram = runProgram): Notify => {
  if (platform === 'darwin') {
    return viaProgram(
      'osascript',
      (n) => ['-e', 'on run argv', '-e', 'display notification (item 2 of argv) with title (item 1 of argv)', '-e', 'end run', n.title, n.body],
      env,
      run,
    );
  }
  if (platform === 'linux' || platform === 'freebsd' || platform === 'openbsd') {
    return viaProgram('notify-send', (n) => ['--app-name=agentwatch', n.title, n.body], env, run);
  }
  return () => Promise.reject(new NotifierUnavailableError(`desktop notifications are not supported on ${platform}`));
};
