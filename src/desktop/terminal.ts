import path from 'node:path';
import type { TerminalChoice } from '../config/effective.js';
import type { Finder } from './which.js';
import type { Step } from './spawn-detached.js';

/**
 * Which terminal runs a command in a new window (docs/dashboard.md, the session actions), as a plan of
 * programs to start. Pure over an injected Finder, so every platform's choice is table-tested.
 *
 * - Linux and the BSDs: `kitty` when chosen and installed; otherwise the generic terminal-exec
 *   helper (`xdg-terminal-exec`), then the desktop's alternatives entry (`x-terminal-emulator`),
 *   then common emulators.
 * - macOS: Terminal.app; with `kitty`, one dedicated instance (group `agentwatch`) raised after
 *   each launch.
 *
 * The command never passes through a shell as text: on Linux it runs under a fixed `sh -c`
 * script that receives the directory and argv as positional parameters (so the new window starts
 * in the session's directory whatever the emulator does with its own cwd); on macOS,
 * Terminal.app only takes script text, so every word is single-quoted.
 */

const KITTY_GROUP = 'agentwatch';

/**
 * `cd` to $1, run the rest; with `keep`, leave an interactive shell in that directory when the
 * command ends (a resumed agent that exits should not close the window with its output).
 */
const script = (keep: boolean): string => `cd -- "$1" || exit 1; shift; "$@"${keep ? '; exec "${SHELL:-/bin/sh}" -i' : ''}`;

const wrapped = (argv: readonly string[], cwd: string, keep: boolean): string[] => ['/bin/sh', '-c', script(keep), 'agentwatch', cwd, ...argv];

/** How each Linux emulator takes a command to run (after its own options). */
const LINUX_EMULATORS: readonly { readonly name: string; readonly args: (command: readonly string[], cwd: string) => string[] }[] = [
  { name: 'gnome-terminal', args: (command, cwd) => [`--working-directory=${cwd}`, '--', ...command] },
  { name: 'konsole', args: (command, cwd) => ['--workdir', cwd, '-e', ...command] },
  { name: 'xfce4-terminal', args: (command, cwd) => [`--working-directory=${cwd}`, '-x', ...command] },
  { name: 'kitty', args: (command, cwd) => ['--directory', cwd, ...command] },
  { name: 'alacritty', args: (command, cwd) => ['--working-directory', cwd, '-e', ...command] },
  { name: 'wezterm', args: (command, cwd) => ['start', '--cwd', cwd, '--', ...command] },
  { name: 'foot', args: (command, cwd) => [`--working-directory=${cwd}`, ...command] },
  { name: 'terminator', args: (command, cwd) => [`--working-directory=${cwd}`, '-x', ...command] },
  { name: 'xterm', args: (command) => ['-e', ...command] },
];

const MAC_KITTY = '/Applications/kitty.app/Contents/MacOS/kitty';

/** AppleScript string literal. */
const appleString = (text: string): string => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
/** POSIX shell single-quoting of one word. */
const shellWord = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

export interface TerminalRequest {
  readonly choice: TerminalChoice;
  readonly argv: readonly string[];
  readonly cwd: string;
  /** Keep a shell open in the directory when the command ends (Resume); an editor closes its window. */
  readonly keepShell: boolean;
}

/** The programs to start in order, or why none can be. */
export const terminalPlan = (request: TerminalRequest, platform: NodeJS.Platform, find: Finder): { readonly steps: readonly Step[]; readonly terminal: string } | { readonly error: string } => {
  const { argv, cwd, keepShell } = request;
  if (platform === 'darwin') {
    const osascript = find.onPath('osascript') ?? '/usr/bin/osascript';
    if (request.choice === 'kitty') {
      const kitty = find.onPath('kitty') ?? (find.exists(MAC_KITTY) ? MAC_KITTY : undefined);
      if (kitty) {
        return {
          terminal: 'kitty',
          steps: [
            { command: kitty, args: ['--single-instance', '--instance-group', KITTY_GROUP, '--directory', cwd, ...wrapped(argv, cwd, keepShell)] },
            // A single-instance kitty opens the window in the background: bring it forward.
            { command: osascript, args: ['-e', 'tell application "kitty" to activate'] },
          ],
        };
      }
    }
    const line = `cd ${shellWord(cwd)} && ${argv.map(shellWord).join(' ')}${keepShell ? '' : '; exit'}`;
    return { terminal: 'Terminal', steps: [{ command: osascript, args: ['-e', 'tell application "Terminal"', '-e', `do script ${appleString(line)}`, '-e', 'activate', '-e', 'end tell'] }] };
  }
  if (platform === 'win32') return { error: 'opening a terminal is offered on Linux and macOS; copy the command instead' };
  const command = wrapped(argv, cwd, keepShell);
  if (request.choice === 'kitty') {
    const kitty = find.onPath('kitty');
    if (kitty) return { terminal: 'kitty', steps: [{ command: kitty, args: ['--directory', cwd, ...command] }] };
  }
  const helper = find.onPath('xdg-terminal-exec');
  if (helper) return { terminal: 'xdg-terminal-exec', steps: [{ command: helper, args: command }] };
  const alternative = find.onPath('x-terminal-emulator');
  if (alternative) return { terminal: 'x-terminal-emulator', steps: [{ command: alternative, args: ['-e', ...command] }] };
  for (const emulator of LINUX_EMULATORS) {
    const found = find.onPath(emulator.name);
    if (found) return { terminal: path.basename(found), steps: [{ command: found, args: emulator.args(command, cwd) }] };
  }
  return { error: `no terminal found: install one, or xdg-terminal-exec (looked for xdg-terminal-exec, x-terminal-emulator, ${LINUX_EMULATORS.map((e) => e.name).join(', ')} on PATH)` };
};
