import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import type { Env } from '../../config/paths.js';

// Shared with the dashboard's Editor action (desktop/command-line.ts); re-exported for the TUI.
export { editorCommand, splitCommand } from '../../desktop/command-line.js';

/**
 * `o`: open the session's directory in the user's editor: config `editor`, else `$VISUAL`, else
 * `$EDITOR` (docs/tui.md). The setting may carry arguments (`code --new-window`, `"my editor" -w`).
 */

/**
 * Run the editor on the terminal (the TUI is suspended meanwhile, so terminal editors work) and
 * resolve with its exit code, or reject with a message when it cannot be started.
 */
export const runEditor = (argv: readonly string[], cwd: string, env: Env): Promise<number> =>
  new Promise((resolve, reject) => {
    const [command, ...args] = argv;
    if (!command) {
      reject(new Error('empty editor command'));
      return;
    }
    // Checked first: spawn reports a missing cwd as ENOENT, which would blame the editor.
    if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
      reject(new Error(`${cwd} does not exist (any more) on this machine`));
      return;
    }
    const child = spawn(command, args, { cwd, stdio: 'inherit', env: { ...env } });
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(error.code === 'ENOENT' ? `editor "${command}" not found on PATH` : `cannot start "${command}": ${error.message}`)),
    );
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 0)));
  });
