import path from 'node:path';
import type { TerminalChoice } from '../config/effective.js';
import type { Env } from '../config/paths.js';
import { editorCommand } from './command-line.js';
import type { Step } from './spawn-detached.js';
import { terminalPlan } from './terminal.js';
import type { Finder } from './which.js';

/**
 * The dashboard's Editor action: the session's directory in `editor` / `$VISUAL` / `$EDITOR`.
 * A windowed editor (code, zed, subl, gvim...) is started on its own; an editor that needs a
 * terminal (vim, nano, emacs -nw...) gets a new window of the configured terminal (docs/dashboard.md).
 */

const TERMINAL_EDITORS = new Set(['vi', 'vim', 'nvim', 'view', 'nano', 'pico', 'micro', 'hx', 'helix', 'kak', 'ne', 'joe', 'jed', 'mcedit', 'mg', 'ed', 'vis', 'amp']);
const NO_WINDOW_FLAGS = new Set(['-nw', '--no-window-system', '-t', '-tty', '--tty']);

/** Pure: does this editor command need a terminal? */
export const needsTerminal = (argv: readonly string[]): boolean => {
  const name = path.basename(argv[0] ?? '').replace(/\.exe$/i, '');
  if (TERMINAL_EDITORS.has(name)) return true;
  if (name === 'emacs' || name === 'emacsclient') return argv.slice(1).some((arg) => NO_WINDOW_FLAGS.has(arg));
  return false;
};

export interface EditorPlan {
  readonly steps: readonly Step[];
  /** Which setting the command came from: config "editor", $VISUAL or $EDITOR. */
  readonly from: string;
  readonly editor: string;
  /** The terminal it opens in, when it needs one. */
  readonly terminal?: string;
}

export const editorPlan = (
  request: { readonly configured: string; readonly env: Env; readonly cwd: string; readonly terminal: TerminalChoice },
  platform: NodeJS.Platform,
  find: Finder,
): EditorPlan | { readonly error: string } => {
  const command = editorCommand(request.configured, request.env, request.cwd);
  if (!command) return { error: 'no editor is set: choose one in Settings (editor), or set $VISUAL or $EDITOR' };
  const [program = '', ...rest] = command.argv;
  const resolved = path.isAbsolute(program) ? (find.exists(program) ? program : undefined) : find.onPath(program);
  if (!resolved) return { error: `editor "${program}" (from ${command.from}) was not found${path.isAbsolute(program) ? '' : ' on PATH'}` };
  const argv = [resolved, ...rest];
  if (!needsTerminal(command.argv)) return { steps: [{ command: resolved, args: rest }], from: command.from, editor: path.basename(program) };
  const plan = terminalPlan({ choice: request.terminal, argv, cwd: request.cwd, keepShell: false }, platform, find);
  if ('error' in plan) return { error: `${path.basename(program)} needs a terminal: ${plan.error}` };
  return { steps: plan.steps, from: command.from, editor: path.basename(program), terminal: plan.terminal };
};
