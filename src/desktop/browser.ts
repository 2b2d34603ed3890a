import path from 'node:path';
import type { Env } from '../config/paths.js';
import type { Step } from './spawn-detached.js';
import type { Finder } from './which.js';

/**
 * How `agentwatch --gui` opens the dashboard (docs/dashboard.md): in an app window (`--app=URL`: no
 * tabs, no address bar) of an installed Chromium-family browser when there is one, else in the
 * default browser. Pure over an injected Finder, so each platform's choice is table-tested.
 */

/** Chromium-family executables on PATH, in order of preference. */
const PATH_BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge', 'microsoft-edge-stable', 'brave-browser', 'brave', 'msedge', 'chrome'];

/** The same browsers' macOS app bundles (in /Applications or ~/Applications). */
const MAC_BUNDLES = [
  ['Google Chrome.app', 'Google Chrome'],
  ['Chromium.app', 'Chromium'],
  ['Microsoft Edge.app', 'Microsoft Edge'],
  ['Brave Browser.app', 'Brave Browser'],
] as const;

/** Windows install locations, under Program Files and the user's local app data. */
const WINDOWS_INSTALLS = [
  ['Google', 'Chrome', 'Application', 'chrome.exe'],
  ['Microsoft', 'Edge', 'Application', 'msedge.exe'],
  ['BraveSoftware', 'Brave-Browser', 'Application', 'brave.exe'],
  ['Chromium', 'Application', 'chrome.exe'],
] as const;

const appBrowser = (platform: NodeJS.Platform, env: Env, find: Finder): string | undefined => {
  if (platform === 'darwin') {
    const homes = ['/Applications', ...(env.HOME ? [path.join(env.HOME, 'Applications')] : [])];
    for (const [bundle, binary] of MAC_BUNDLES) {
      for (const home of homes) {
        const file = path.join(home, bundle, 'Contents', 'MacOS', binary);
        if (find.exists(file)) return file;
      }
    }
  }
  if (platform === 'win32') {
    const roots = [env.ProgramFiles, env['ProgramFiles(x86)'], env.LOCALAPPDATA].filter((root): root is string => Boolean(root));
    for (const parts of WINDOWS_INSTALLS) {
      for (const root of roots) {
        const file = path.win32.join(root, ...parts);
        if (find.exists(file)) return file;
      }
    }
  }
  for (const name of PATH_BROWSERS) {
    const found = find.onPath(name);
    if (found) return found;
  }
  return undefined;
};

export interface OpenPlan {
  readonly step: Step;
  /** "app window (chromium)" or "default browser": said on stderr. */
  readonly how: string;
}

/** Pure: how to open `url` (which carries the token in its fragment) on `platform`. */
export const openPlan = (url: string, platform: NodeJS.Platform, env: Env, find: Finder): OpenPlan | { readonly error: string } => {
  const browser = appBrowser(platform, env, find);
  if (browser) return { step: { command: browser, args: [`--app=${url}`] }, how: `an app window of ${path.basename(browser).replace(/\.exe$/i, '')}` };
  if (platform === 'darwin') return { step: { command: find.onPath('open') ?? '/usr/bin/open', args: [url] }, how: 'the default browser' };
  if (platform === 'win32') {
    // No shell: `start` is a cmd built-in with its own quoting; the URL handler takes the URL as is.
    return { step: { command: find.onPath('rundll32') ?? 'rundll32.exe', args: ['url.dll,FileProtocolHandler', url] }, how: 'the default browser' };
  }
  const opener = find.onPath('xdg-open');
  if (opener) return { step: { command: opener, args: [url] }, how: 'the default browser' };
  return { error: 'no browser found to open the dashboard (looked for Chromium, Chrome, Edge, Brave and xdg-open on PATH)' };
};
