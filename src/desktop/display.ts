import type { Env } from '../config/paths.js';

/**
 * Why a window cannot open on this machine, or undefined when it may: outside macOS and Windows
 * a window needs an X11 or Wayland display, named by DISPLAY or WAYLAND_DISPLAY (an SSH session
 * or a service has neither).
 */
export const noDisplay = (platform: NodeJS.Platform, env: Env): string | undefined => {
  if (platform === 'darwin' || platform === 'win32') return undefined;
  return env.DISPLAY || env.WAYLAND_DISPLAY ? undefined : 'there is no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set)';
};
