import type { Effective } from './effective.js';

/**
 * The one-time stderr lines a loaded config deserves: a file that could not be read and what runs
 * instead, each fallback taken and each webhook entry that will not run, named, with what is
 * wrong. Commands print these once at startup.
 */
export const configNotices = (path: string, effective: Pick<Effective, 'warnings' | 'invalidWebhooks'> & { readonly unreadable?: string }): string[] => [
  ...(effective.unreadable === undefined ? [] : [`agentwatch: ${effective.unreadable}; running without it (on the defaults for what could not be read), and it is left as it is`]),
  ...effective.warnings.map((warning) => `agentwatch: ${path}: ${warning}`),
  ...effective.invalidWebhooks.map(
    (hook) => `agentwatch: ${path}: webhook "${hook.name}" is invalid and will not run: ${hook.problems.join('; ')}`,
  ),
];
