import type { Effective } from './effective.js';

/**
 * The one-time stderr lines a loaded config deserves: each fallback taken and each webhook entry
 * that will not run, named, with what is wrong. Commands print these once at startup.
 */
export const configNotices = (path: string, effective: Pick<Effective, 'warnings' | 'invalidWebhooks'>): string[] => [
  ...effective.warnings.map((warning) => `agentwatch: ${path}: ${warning}`),
  ...effective.invalidWebhooks.map(
    (hook) => `agentwatch: ${path}: webhook "${hook.name}" is invalid and will not run: ${hook.problems.join('; ')}`,
  ),
];
