import { promises as fs, realpathSync } from 'node:fs';
import path from 'node:path';
import { homeDir, xdgConfigHome, type Env } from '../config/paths.js';
import { writeFileAtomic } from '../util/fs-atomic.js';

/**
 * `launch_at_login`: a LaunchAgent on macOS (`~/Library/LaunchAgents`), an XDG autostart entry on
 * Linux and the BSDs (`$XDG_CONFIG_HOME/autostart/agentwatch.desktop`). The entry starts
 * `agentwatch --gui --no-open`: at login the monitor runs (notifications, webhooks, the dashboard
 * one click away) without a browser window popping up on every login.
 */

const LAUNCH_AGENT_LABEL = 'dev.agentwatch.agentwatch';
const AUTOSTART_ARGS = ['--gui', '--no-open'] as const;

/** Where the entry lives on `platform`, or undefined where launch at login is not offered (Windows). */
export const autostartPath = (platform: NodeJS.Platform, env: Env): string | undefined => {
  if (platform === 'darwin') return path.join(homeDir(env), 'Library', 'LaunchAgents', `${LAUNCH_AGENT_LABEL}.plist`);
  if (platform === 'win32') return undefined;
  return path.join(xdgConfigHome(env), 'autostart', 'agentwatch.desktop');
};

/** Desktop Entry `Exec` quoting: every argument in double quotes, `"` `` ` `` `$` `\` escaped, `%` doubled. */
const execArg = (arg: string): string => `"${arg.replace(/([\\"`$])/g, '\\$1').replace(/%/g, '%%')}"`;

const xmlText = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Pure: the file content that starts `command` (absolute node + script paths, then the flags) at login. */
export const autostartEntry = (platform: NodeJS.Platform, command: readonly string[]): string => {
  if (platform === 'darwin') {
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
      '<plist version="1.0">',
      '<dict>',
      '  <key>Label</key>',
      `  <string>${LAUNCH_AGENT_LABEL}</string>`,
      '  <key>ProgramArguments</key>',
      '  <array>',
      ...command.map((arg) => `    <string>${xmlText(arg)}</string>`),
      '  </array>',
      '  <key>RunAtLoad</key>',
      '  <true/>',
      '  <key>ProcessType</key>',
      '  <string>Interactive</string>',
      '</dict>',
      '</plist>',
      '',
    ].join('\n');
  }
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=agentwatch',
    'Comment=Watch every coding agent on this machine (web dashboard)',
    `Exec=${command.map(execArg).join(' ')}`,
    'Terminal=false',
    'NoDisplay=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
};

/** This very program: node's absolute path and the CLI script's real path (PATH at login may lack both). */
export const currentCommand = (): string[] => {
  const script = process.argv[1];
  let resolved = script;
  try {
    if (script) resolved = realpathSync(script);
  } catch {
    resolved = script;
  }
  return [process.execPath, ...(resolved ? [resolved] : []), ...AUTOSTART_ARGS];
};

export class AutostartError extends Error {
  /** True when this platform has no login entry at all (a request to fix, not a failure). */
  readonly unsupported: boolean;
  constructor(message: string, unsupported = false) {
    super(message);
    this.unsupported = unsupported;
  }
}

/**
 * Create (enabled) or remove (disabled) the entry; resolves to its path. Removing an entry that is
 * not there is fine. Refused on platforms without one, with a message the Settings panel shows.
 */
export const setLaunchAtLogin = async (enabled: boolean, target: { readonly platform: NodeJS.Platform; readonly env: Env; readonly command: readonly string[] }): Promise<string> => {
  const file = autostartPath(target.platform, target.env);
  if (!file) throw new AutostartError(`launch_at_login is offered on macOS and Linux only (this is ${target.platform})`, true);
  try {
    if (enabled) {
      await fs.mkdir(path.dirname(file), { recursive: true });
      await writeFileAtomic(file, autostartEntry(target.platform, target.command), 0o644);
    } else {
      await fs.rm(file, { force: true });
    }
  } catch (error) {
    throw new AutostartError(`launch_at_login: cannot ${enabled ? 'write' : 'remove'} ${file}: ${(error as Error).message}`);
  }
  return file;
};
