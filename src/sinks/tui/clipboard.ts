import { spawn } from 'node:child_process';
import type { Env } from '../../config/paths.js';
import { findOnPath } from '../../util/find-on-path.js';

/**
 * Copying the resume command: OSC 52 always (works over SSH and in most terminals), plus the
 * platform's clipboard tool when one is installed (OSC 52 is off in some terminals and tmux).
 */

/** OSC 52 "set clipboard" with the text base64-encoded. */
export const osc52 = (text: string): string => `\u001b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`;

export interface ClipboardTool {
  readonly command: string;
  readonly args: readonly string[];
}

/** The tools to try, best first, for this platform and session (Wayland before X11). */
export const clipboardTools = (env: Env, platform: NodeJS.Platform): ClipboardTool[] => {
  if (platform === 'darwin') return [{ command: 'pbcopy', args: [] }];
  if (platform === 'win32') return [{ command: 'clip', args: [] }];
  const tools: ClipboardTool[] = [];
  if (env.WAYLAND_DISPLAY) tools.push({ command: 'wl-copy', args: [] });
  if (env.DISPLAY) tools.push({ command: 'xclip', args: ['-selection', 'clipboard'] }, { command: 'xsel', args: ['--clipboard', '--input'] });
  return tools;
};

/** Pipe `text` into the tool; resolves true when it exited 0 within 2 s. */
const pipeTo = (executable: string, args: readonly string[], text: string, env: Env): Promise<boolean> =>
  new Promise((resolve) => {
    const child = spawn(executable, [...args], { stdio: ['pipe', 'ignore', 'ignore'], env: { ...env } });
    const timer = setTimeout(() => {
      // xclip keeps serving the selection in the background; not waiting for it is fine.
      child.unref();
      resolve(true);
    }, 2000);
    child.on('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(text);
  });

export interface CopyResult {
  /** The tool that took the text, if any. OSC 52 is always written. */
  readonly tool?: string;
}

/** Write OSC 52 through `writeRaw`, then hand the text to the first installed clipboard tool. */
export const copyToClipboard = async (text: string, env: Env, platform: NodeJS.Platform, writeRaw: (bytes: string) => void): Promise<CopyResult> => {
  writeRaw(osc52(text));
  for (const tool of clipboardTools(env, platform)) {
    const executable = findOnPath(tool.command, { path: env.PATH });
    if (executable && (await pipeTo(executable, tool.args, text, env))) return { tool: tool.command };
  }
  return {};
};
