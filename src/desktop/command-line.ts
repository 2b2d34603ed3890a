import type { Env } from '../config/paths.js';

/**
 * Command lines from settings (`editor`, `$VISUAL`, `$EDITOR`) and from sessions (resume
 * commands), split into argv so they run without a shell. Shared by the TUI and the dashboard.
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
