import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import type { Env } from '../../config/paths.js';

/**
 * `o`: open the session's directory in the user's editor: config `editor`, else `$VISUAL`, else
 * `$EDITOR` (spec 2.1). The setting may carry arguments (`code --new-window`, `"my editor" -w`).
 */

/** Split a command line on spaces, honouring single and double quotes and backslash escapes. */
export const splitCommand = (line: string): string[] => {
  const words: string[] = [];
  let word = '';
  let quote: '"' | "'" | undefined;
  let started = false;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i] ?? '';
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < line.length) word += line[++i] ?? '';
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      started = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      word += line[++i] ?? '';
      started = true;
    } else if (/\s/.test(ch)) {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      word += ch;
      started = true;
    }
  }
  if (started) words.push(word);
  return words;
};

/** The command to run for `cwd`, and which setting it came from; undefined when none is set. */
export const editorCommand = (configured: string, env: Env, cwd: string): { argv: string[]; from: string } | undefined => {
  const candidates: [string, string | undefined][] = [
    ['config "editor"', configured],
    ['$VISUAL', env.VISUAL],
    ['$EDITOR', env.EDITOR],
  ];
  for (const [from, value] of candidates) {
    const words = splitCommand(value ?? '');
    if (words.length > 0) return { argv: [...words, cwd], from };
  }
  return undefined;
};

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
